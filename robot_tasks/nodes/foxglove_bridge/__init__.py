"""The `foxglove_bridge` process: watch the robots in Foxglove (or Lichtblick) from a pip install.

Foxglove reads live data from a WebSocket server speaking its protocol (subprotocol
`foxglove.sdk.v1`): the server *advertises channels* (topic, message encoding, schema),
a client *subscribes* to the ones it shows, and the server sends each message as binary
frames. For ROS 2 data the natural encoding is the one DDS already uses: `cdr` messages
with `ros2msg` schemas (the .msg text). So this bridge never decodes anything: rclpy's
raw subscriptions hand over the serialized CDR bytes, and they go out as they came.

    python -m robot_tasks.nodes.foxglove_bridge            # ws://127.0.0.1:8765
    python -m robot_tasks.nodes.foxglove_bridge --ros-args -p topics:="[/tf, /tf_static, /panda/joint_states]"

then open Foxglove, "Open connection", Foxglove WebSocket, ws://127.0.0.1:8765, and
import config/franka_stacking.foxglove.json as the layout. The server listens on
127.0.0.1 unless `address` says otherwise. The Foxglove SDK (PyPI `foxglove-sdk`) runs
the server; node.py is the ROS side, robot_tasks/ros/message_schemas.py builds the schemas, assets.py
serves the URDFs' meshes to the 3D panel.
"""
