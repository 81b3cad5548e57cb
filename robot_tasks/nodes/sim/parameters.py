"""The sim node's ROS parameters: declared in one place, checked, with reasons on error.

| parameter          | default | meaning                                                        |
|--------------------|---------|----------------------------------------------------------------|
| scene              | franka_stacking | scene name (robot_tasks.sim.scenes)                    |
| seed               | 0       | scene seed (same seed, same scene)                             |
| rate               | 240.0   | physics steps per sim second                                   |
| real_time_factor   | 1.0     | sim seconds per wall second; 0 = as fast as possible, within   |
|                    |         | max_lead of the nodes                                          |
| max_lead           | 0.1     | rtf 0: sim s the sim may run past the nodes' last command      |
|                    |         | while it carries out none; then real time until the next one   |
|                    |         | (lead.py; see below); negative = no bound (rtf 0 before 37)    |
| joint_state_rate   | 100.0   | <ns>/joint_states per sim second                               |
| clock_rate         | 100.0   | /clock per sim second (raised to joint_state_rate if lower)    |
| camera_rate        | 5.0     | RGB-D frames per sim second; 0 = camera off                    |
| camera_width/height| 320/240 | image size in pixels                                           |
| camera_max_wall_rate | 0.0   | at most this many frames per wall second (0 = no cap): faster  |
|                    |         | than real time (rtf 0) frames are skipped, see below           |
| stream_max_wall_rate | 150.0 | /clock and joint_states each at most this often per wall       |
|                    |         | second (0 = no cap); binds only above 1.5x real time (loop.py) |
| object_rate        | 10.0    | objects + object_markers per sim second; 0 = off               |
| layout             | ""      | the scene's object layout ("" = its default; franka_pyramid:   |
|                    |         | scattered or pyramid)                                          |
| namespaces.<robot> | <robot> | topic namespace of one robot ("" = the node's own namespace)   |
| gui                | false   | open PyBullet's own window (needs an X display); headless otherwise |
| controller_state   | false   | publish each robot's controller states once per control step (robot_io.py) |
| pick_object        | ""      | scene option: the YCB object to pick (banana_bowl: "" = 011_banana) |
| vacuum_output_pin  | 16      | UR digital output (set_io pin) of the suction cup's vacuum valve (ur_io.py) |
| vacuum_sensor_pin  | 16      | UR digital input (io_states) of the cup's vacuum switch: object attached |
| conveyor_output_pin| 0       | UR digital output wired to the belt's PLC "run" input (scenes with a belt) |

The wall-clock cap on the camera, and why it is off by default: a 320x240 frame costs
40-70 ms of CPU (TinyRenderer), so at rtf 0 the camera's 5 frames per sim second hold the
sim near real time. With a cap (e.g. 5, the perception stream's own wall rate) the sim
runs free between frames, but measured (bench/episode_speed.py, before max_lead) the episode then took the
same wall time (28 s against 30 s at rtf 1) and 5x the sim time (132 s against 25 s):
while the servers plan and the tree waits in wall time, the sim races on, so the sensors
would see less of each sim second than at rtf 1 and the reactive checks would react later
in sim time. Off keeps the sensors' rates in sim time at every real-time factor.

The lead at rtf 0 (lead.py), and why 0.1 s by default: the sim steps at full speed while it
carries out a command (a trajectory, a hand motion) and up to max_lead sim s past the nodes'
last command; then, while they plan, detect and decide, at real time until their next one.
Each pause of the nodes costs at most max_lead more sim time than at rtf 1. A stacking
episode has about 44 such pauses (measured), so 0.1 s adds at most ~4.4 sim s to rtf 1's
~23-30 s, inside issue 37's 1.3x; and 0.1 s is the nodes' own reaction at rtf 1 (ten
joint_states and tree ticks, half a camera period), so the sensors a node acts on are about
as old as at rtf 1. Measured (bench/episode_speed.py --leads 0.1,off, 3 episodes each, one
loaded run): 1.15x rtf 1's sim time against 2.89x without the bound, the same wall time.

Numbers accept ints or floats (`-p real_time_factor:=1` works).  `use_sim_time` is
forced false: this node is the clock source.
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.ros.errors import ParameterError
from robot_tasks.ros.parameters import declare


@dataclass(frozen=True)
class SimParams:
    scene: str
    seed: int
    rate: float
    real_time_factor: float
    max_lead: float
    joint_state_rate: float
    clock_rate: float
    camera_rate: float
    camera_width: int
    camera_height: int
    camera_max_wall_rate: float
    object_rate: float
    stream_max_wall_rate: float
    gui: bool
    controller_state: bool = False
    pick_object: str = ""
    layout: str = ""
    vacuum_output_pin: int = 16     # tool digital out 0
    vacuum_sensor_pin: int = 16     # tool digital in 0
    conveyor_output_pin: int = 0    # standard digital out 0

    @property
    def scene_options(self) -> dict:
        """Keyword options of the scene builder (only those set: other scenes take none)."""
        options = {"pick_object": self.pick_object, "layout": self.layout}
        return {key: value for key, value in options.items() if value}



def declare_sim_params(node, known_scenes) -> SimParams:
    """Declare every parameter on `node`, read them, and check them (ParameterError)."""
    def rate(name, default, text, zero_allowed=False):
        return declare(node, name, default, text, minimum=0.0, open_minimum=not zero_allowed)

    def pin(name, default, text):       # the UR's digital IO pins: 0-7, configurable 8-15, tool 16-17
        return declare(node, name, default, text + " (pin 0-17)", minimum=0, maximum=17)

    def pixels(name, default):
        return declare(node, name, default, "camera image size in pixels", minimum=16, maximum=4096)

    scene = declare(node, "scene", "franka_stacking", "scene name (robot_tasks.sim.scenes)")
    if scene not in known_scenes:
        raise ParameterError("scene", f": unknown scene {scene!r} (known: {', '.join(sorted(known_scenes))})",
                             node=node.get_name())
    js_rate = rate("joint_state_rate", 100.0, "<ns>/joint_states per sim second")
    return SimParams(
        scene=scene,
        seed=declare(node, "seed", 0, "scene seed (same seed, same scene)", minimum=0, maximum=2**32 - 1),
        rate=rate("rate", 240.0, "physics steps per sim second"),
        real_time_factor=rate("real_time_factor", 1.0, "sim s per wall s; 0 = as fast as possible",
                              zero_allowed=True),
        max_lead=declare(node, "max_lead", 0.1, "rtf 0: sim s the sim may run past the nodes' last command "
                         "while it carries out none, then real time; negative = no bound"),
        joint_state_rate=js_rate,
        clock_rate=max(rate("clock_rate", 100.0, "/clock per sim second"), js_rate),
        camera_rate=rate("camera_rate", 5.0, "RGB-D frames per sim second; 0 = off", zero_allowed=True),
        camera_width=pixels("camera_width", 320),
        camera_height=pixels("camera_height", 240),
        camera_max_wall_rate=rate("camera_max_wall_rate", 0.0, "camera frames per wall second at most; 0 = no cap",
                                  zero_allowed=True),
        object_rate=rate("object_rate", 10.0, "objects + markers per sim second; 0 = off", zero_allowed=True),
        stream_max_wall_rate=rate("stream_max_wall_rate", 150.0, "/clock and joint_states per wall second "
                                  "at most (binds only faster than real time); 0 = no cap", zero_allowed=True),
        gui=declare(node, "gui", False, "open PyBullet's own window (needs an X display); default headless"),
        controller_state=declare(node, "controller_state", False,
                                 "publish the controller states once per control step"),
        pick_object=declare(node, "pick_object", "", "scene option: YCB object to pick (\"\" = the scene's own)"),
        layout=declare(node, "layout", "", "object layout of the scene; '' = its default "
                                           "(franka_pyramid: scattered | pyramid)"),
        vacuum_output_pin=pin("vacuum_output_pin", 16, "UR digital output of the suction cup's vacuum valve"),
        vacuum_sensor_pin=pin("vacuum_sensor_pin", 16, "UR digital input of the cup's vacuum switch"),
        conveyor_output_pin=pin("conveyor_output_pin", 0, "UR digital output to the belt PLC's run input"),
    )


def robot_namespace(node, robot_name: str) -> str:
    """Declare and read `namespaces.<robot>` (default: the robot's name); "" = node namespace."""
    name = f"namespaces.{robot_name}"
    value = declare(node, name, robot_name, f"topic namespace of {robot_name}").strip("/")
    if value and not all(part.replace("_", "a").isalnum() and not part[0].isdigit()
                         for part in value.split("/")):
        raise ParameterError(name, f": {value!r} is not a valid ROS namespace", node=node.get_name())
    return value
