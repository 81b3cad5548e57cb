"""A tree_executor plugin for the tests: register_nodes(factory, ros_node) adds NodeName,
a leaf that writes the name of the rclpy node it was given to its `name_out` port."""
from robot_tasks.bt import NodeStatus, OutputPort


def register_nodes(factory, ros_node) -> None:
    def tick(node):
        node.set_output("name_out", ros_node.get_name())
        return NodeStatus.SUCCESS

    factory.register_simple_action("NodeName", tick, ports=[OutputPort("name_out", str)])
