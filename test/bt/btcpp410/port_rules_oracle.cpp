// Records what BehaviorTree.CPP 4.10 does when it loads a tree: one case per stdin line,
// "<0|1> <xml on one line>" (1 = register the Animal hierarchy as polymorphic casts),
// one result per stdout line: "OK" or "ERROR <what()>".
//
// Used to record the expectations of test/bt/test_port_connection_rules.py. Build against
// a BT.CPP 4.10 build tree, e.g.
//   g++ -std=c++17 -I$BTCPP/include port_rules_oracle.cpp -o port_rules_oracle \
//       -L$BTCPP/build -lbehaviortree_cpp -Wl,-rpath,$BTCPP/build
// then run the tests with BTCPP410_ORACLE=./port_rules_oracle to compare live.
#include "behaviortree_cpp/bt_factory.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace BT;

// A value type with a string conversion ("x;y"), like gtest_port_type_rules' TestPoint.
struct Point
{
  double x = 0;
  double y = 0;
};
namespace BT
{
template <>
inline Point convertFromString(StringView text)
{
  auto parts = splitString(text, ';');
  if(parts.size() != 2)
  {
    throw RuntimeError("a Point is 'x;y'");
  }
  return { convertFromString<double>(parts[0]), convertFromString<double>(parts[1]) };
}
}  // namespace BT

// The class hierarchy of gtest_polymorphic_ports (Animal <- Cat <- Sphynx, Animal <- Dog).
struct Animal
{
  virtual ~Animal() = default;
};
struct Cat : Animal
{
};
struct Dog : Animal
{
};
struct Sphynx : Cat
{
};

// One leaf per type, with an input "in", an output "out" and an inout "io" of that type.
template <typename T>
class Typed : public SyncActionNode
{
public:
  Typed(const std::string& name, const NodeConfig& config) : SyncActionNode(name, config)
  {}
  NodeStatus tick() override
  {
    return NodeStatus::SUCCESS;
  }
  static PortsList providedPorts()
  {
    return { InputPort<T>("in"), OutputPort<T>("out"), BidirectionalPort<T>("io") };
  }
};

static std::string load(const std::string& xml, bool polymorphic)
{
  BehaviorTreeFactory factory;
  factory.registerNodeType<Typed<int>>("Int");
  factory.registerNodeType<Typed<double>>("Double");
  factory.registerNodeType<Typed<bool>>("Bool");
  factory.registerNodeType<Typed<std::string>>("String");
  factory.registerNodeType<Typed<AnyTypeAllowed>>("Generic");
  factory.registerNodeType<Typed<BT::Any>>("AnyT");
  factory.registerNodeType<Typed<Point>>("Point");
  factory.registerNodeType<Typed<std::vector<double>>>("VecDouble");
  factory.registerNodeType<Typed<std::shared_ptr<Animal>>>("Animal");
  factory.registerNodeType<Typed<std::shared_ptr<Cat>>>("Cat");
  factory.registerNodeType<Typed<std::shared_ptr<Dog>>>("Dog");
  factory.registerNodeType<Typed<std::shared_ptr<Sphynx>>>("Sphynx");
  if(polymorphic)
  {
    factory.registerPolymorphicCast<Cat, Animal>();
    factory.registerPolymorphicCast<Dog, Animal>();
    factory.registerPolymorphicCast<Sphynx, Cat>();
  }
  try
  {
    auto tree = factory.createTreeFromText(xml);
    return "OK";
  }
  catch(const std::exception& error)
  {
    std::string what = error.what();
    for(auto& c : what)
    {
      if(c == '\n')
      {
        c = ' ';
      }
    }
    return "ERROR " + what;
  }
}

int main()
{
  std::streambuf* real_out = std::cout.rdbuf();
  std::ostringstream noise;  // BT.CPP prints the blackboard before some errors
  std::string line;
  while(std::getline(std::cin, line))
  {
    if(line.size() < 2)
    {
      continue;
    }
    std::cout.rdbuf(noise.rdbuf());
    const std::string result = load(line.substr(2), line[0] == '1');
    std::cout.rdbuf(real_out);
    std::cout << result << std::endl;
  }
  return 0;
}
