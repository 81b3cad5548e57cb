"""BT.CPP 4.10's `tests/gtest_polymorphic_ports.cpp`, transcribed (same test names).

BT.CPP needs `registerPolymorphicCast<Cat, Animal>()` to pass a `shared_ptr<Cat>` where a
`shared_ptr<Animal>` is expected; in Python the class hierarchy is the registry
(`class Cat(Animal)`), so every case below runs with the hierarchy registered, as the
4.10 tests do (`RegisterAnimalHierarchy`). The file's tests map as follows:

- AnyCast_* (the registry's `tryCastWithRegistry`): `port_types.polymorphic_cast`, which
  decides at load time, and `convert_value`, which a typed input port applies to the
  value it reads (an isinstance check: the value's runtime class decides, as
  `dynamic_pointer_cast` does).
- Blackboard_* (`bb->get<Animal::Ptr>`): our Blackboard.get is untyped; reading "as T"
  is `convert_value(board.get(key), T)`, what `get_input` does for a port of type T.
- XML_*: the same trees, with the same nodes.
No case lacks an equivalent; the one thing Python cannot express is a hierarchy that
is *not* registered (4.10 refuses Cat -> Animal without `registerPolymorphicCast`).
"""
import pytest

from robot_tasks.bt import (
    BehaviorTreeFactory,
    BidirectionalPort,
    Blackboard,
    InputPort,
    NodeStatus,
    OutputPort,
    PortError,
    SyncActionNode,
    XmlError,
)
from robot_tasks.bt.port_types import polymorphic_cast
from robot_tasks.bt.ports import convert_value


class Animal:
    def name(self):
        return "Animal"


class Cat(Animal):
    def name(self):
        return "Cat"


class Dog(Animal):
    def name(self):
        return "Dog"


class Sphynx(Cat):
    def name(self):
        return "Sphynx"


def cast(value, wanted):
    """tryCastWithRegistry<wanted>: the value, or None when the cast fails."""
    try:
        return convert_value(value, wanted)
    except ValueError:
        return None


# ---- Any-level casts ---------------------------------------------------------------------
def test_AnyCast_SameType():
    animal = Animal()
    assert cast(animal, Animal) is animal
    assert cast(animal, Cat) is None and cast(animal, Sphynx) is None


def test_AnyCast_Upcast():
    cat = Cat()
    assert cast(cat, Cat) is cat
    assert cast(cat, Animal).name() == "Cat"
    assert cast(cat, Sphynx) is None
    assert polymorphic_cast(Cat, Animal)


def test_AnyCast_TransitiveUpcast():
    sphynx = Sphynx()
    assert cast(sphynx, Sphynx) is sphynx
    assert cast(sphynx, Cat).name() == "Sphynx"
    assert cast(sphynx, Animal).name() == "Sphynx"
    assert polymorphic_cast(Sphynx, Animal)


def test_AnyCast_DowncastWithRuntimeTypeCheck():
    cat: Cat = Sphynx()  # stored as a Cat
    assert cast(cat, Cat) is cat
    assert cast(cat, Sphynx).name() == "Sphynx"
    assert polymorphic_cast(Cat, Sphynx)  # a direct downcast is allowed at load time


def test_AnyCast_UnrelatedTypes():
    assert cast(Cat(), Dog) is None and cast(Dog(), Cat) is None
    assert not polymorphic_cast(Cat, Dog) and not polymorphic_cast(Dog, Cat)


# ---- Blackboard-level get ------------------------------------------------------------------
def test_Blackboard_UpcastAndDowncast():
    board = Blackboard()
    board.set("pet", Cat())
    assert cast(board.get("pet"), Animal).name() == "Cat"
    assert cast(board.get("pet"), Cat).name() == "Cat"
    with pytest.raises(ValueError):
        convert_value(board.get("pet"), Sphynx)


def test_Blackboard_TransitiveUpcast():
    board = Blackboard()
    board.set("pet", Sphynx())
    for wanted in (Animal, Cat, Sphynx):
        assert cast(board.get("pet"), wanted).name() == "Sphynx"


# ---- XML trees ----------------------------------------------------------------------------
def creator(class_name, port, port_type, make):
    class Create(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [OutputPort(port, port_type)]

        def tick(self):
            self.set_output(port, make())
            return NodeStatus.SUCCESS
    Create.__name__ = class_name
    return Create


def printer(class_name, port, port_type, names):
    class Print(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort(port, port_type)]

        def tick(self):
            try:  # `if(!getInput(port, value) || !value) return FAILURE;`
                value = self.get_input(port)
            except PortError:
                return NodeStatus.FAILURE
            names[class_name] = value.name()
            return NodeStatus.SUCCESS
    Print.__name__ = class_name
    return Print


CreateAnimal = creator("CreateAnimal", "out_animal", Animal, Animal)
CreateCat = creator("CreateCat", "out_cat", Cat, Cat)
CreateSphynx = creator("CreateSphynx", "out_sphynx", Sphynx, Sphynx)
CreateDog = creator("CreateDog", "out_dog", Dog, Dog)
CreateCatAsAnimal = creator("CreateCatAsAnimal", "out_animal", Animal, Cat)


def factory_and_names():
    names = {}
    factory = BehaviorTreeFactory()
    for cls in (CreateAnimal, CreateCat, CreateSphynx, CreateDog, CreateCatAsAnimal):
        factory.register_node_type(cls)
    for cls in (printer("PrintAnimalName", "in_animal", Animal, names),
                printer("PrintCatName", "in_cat", Cat, names),
                printer("PrintDogName", "in_dog", Dog, names)):
        factory.register_node_type(cls)
    return factory, names


def main(body):
    return f'<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>{body}</Sequence></BehaviorTree></root>'


def test_XML_ValidUpcast():
    factory, names = factory_and_names()
    tree = factory.create_tree_from_text(main('<CreateCat out_cat="{pet}"/><PrintCatName in_cat="{pet}"/>'
                                              '<PrintAnimalName in_animal="{pet}"/>'))
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert names == {"PrintCatName": "Cat", "PrintAnimalName": "Cat"}


def test_XML_TransitiveUpcast():
    factory, names = factory_and_names()
    tree = factory.create_tree_from_text(main('<CreateSphynx out_sphynx="{pet}"/>'
                                              '<PrintAnimalName in_animal="{pet}"/>'))
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert names["PrintAnimalName"] == "Sphynx"


def test_XML_InoutRejectsTypeMismatch():
    class UpdateAnimal(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [BidirectionalPort("animal", Animal)]

        def tick(self):
            return NodeStatus.SUCCESS

    factory, _ = factory_and_names()
    factory.register_node_type(UpdateAnimal)
    with pytest.raises(XmlError, match=r"inout, type \[Animal\].*created with type \[Cat\]"):
        factory.create_tree_from_text(main('<CreateCat out_cat="{pet}"/><UpdateAnimal animal="{pet}"/>'))


def test_XML_InvalidConnection_UnrelatedTypes():
    factory, _ = factory_and_names()
    with pytest.raises(XmlError, match=r"type \[Dog\].*created with type \[Cat\]"):
        factory.create_tree_from_text(main('<CreateCat out_cat="{pet}"/><PrintDogName in_dog="{pet}"/>'))


def test_XML_DowncastSucceedsAtRuntime():
    factory, names = factory_and_names()
    tree = factory.create_tree_from_text(main('<CreateCatAsAnimal out_animal="{pet}"/>'
                                              '<PrintCatName in_cat="{pet}"/>'))
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert names["PrintCatName"] == "Cat"


def test_XML_DowncastFailsAtRuntime():
    factory, _ = factory_and_names()
    tree = factory.create_tree_from_text(main('<CreateAnimal out_animal="{pet}"/><PrintCatName in_cat="{pet}"/>'))
    assert tree.tick_while_running() is NodeStatus.FAILURE  # the value is an Animal, not a Cat
