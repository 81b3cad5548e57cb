"""The leaves that touch the shared blackboard: survey, reserve, lock, give back, mark placed,
and reconcile a robot's stack with what the camera sees.

Each reads or writes the entries of shared_board.py through `@`-keys, so whichever
tree instance ticks them, they meet in the one blackboard every instance's root
hangs from. The XML passes the robot's name and the surveyed cube list
(`cubes="{@cubes}"`) as ports; the decisions come out as ports (`cube`).
"""
from __future__ import annotations

import logging
import time

from robot_tasks.bt import InputPort, NodeStatus, OutputPort, StatefulActionNode, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.tasks.world_view import detections_stamp

from . import shared_board as board
from . import targets as geo
from .pyramid_view import PyramidError, free_cubes, rests_on, top_down_order, walk_labels
from .view_leaves import goal_xy_of, seen_of

LOG = logging.getLogger("robot_tasks.tasks.pyramid")
SUCCESS, FAILURE, RUNNING = NodeStatus.SUCCESS, NodeStatus.FAILURE, NodeStatus.RUNNING


class SharedView:
    """The shared blackboard as seen from a node: every key goes through '@' to the root."""

    def __init__(self, blackboard):
        self._board = blackboard

    def get(self, key, default=None):
        return self._board.get("@" + key, default)

    def set(self, key, value):
        self._board.set("@" + key, value)


def _robot_port():
    return InputPort("robot", str, description="this robot's name (panda_1, panda_2)")


def _cubes_port():
    return InputPort("cubes", description="surveyed cube labels, top first (SurveyPyramid's output)")


class _SharedLeaf:
    def shared(self) -> SharedView:
        return SharedView(self.blackboard)

    def robot(self) -> str:
        name = self.get_input("robot", default="")
        if not name:
            raise BehaviorTreeError(f"node '{self.full_path}': the port robot is empty")
        return name


class SurveyPyramid(_SharedLeaf, SyncActionNode):
    """Name the cubes of the pyramid, top first, and make each one `available`.

    Runs once, before the robots start. FAILURE when fewer than `count` of `labels`
    are seen (the tree looks again; what was seen is logged when it changes)."""

    def __init__(self, name, config=None):
        super().__init__(name, config)
        self._last_seen: list[str] | None = None

    @staticmethod
    def provided_ports():
        return [InputPort("detections", description="DetectedObjectArray (dict or message) from perception"),
                InputPort("labels", str, description="';'-separated cube labels to look for"),
                InputPort("count", int, default=6, description="cubes the pyramid must show"),
                OutputPort("cubes", description="the labels seen, top of the pyramid first")]

    def tick(self):
        labels = [v.strip() for v in self.get_input("labels").split(";") if v.strip()]
        seen = seen_of(self)
        cubes = top_down_order(seen, labels)
        if len(cubes) < self.get_input("count"):
            if cubes == self._last_seen:
                return FAILURE
            self._last_seen = cubes
            LOG.warning("survey: saw %d of %d cubes (%s)", len(cubes), self.get_input("count"), ", ".join(cubes))
            return FAILURE
        shared = self.shared()
        for cube in cubes:
            shared.set(board.state_key(cube), board.AVAILABLE)
        shared.set("center_owner", board.NO_ONE)
        shared.set("center_next", board.NO_ONE)
        LOG.info("survey: %s (top first)", ", ".join(cubes))
        self.set_output("cubes", cubes)
        return SUCCESS


def why_not_free(shared, walk, seen) -> list[str]:
    """For each cube of `walk`, why it cannot be reserved now ('' when it can): its
    booked state, not seen, or what rests on it. For the log of a robot that waits."""
    reasons = []
    for cube in walk:
        state = board.cube_state(shared, cube)
        if state != board.AVAILABLE:
            reasons.append(f"{cube} {state}")
        elif cube not in seen:
            reasons.append(f"{cube} not seen")
        else:
            above = sorted(o for o in seen if o != cube and rests_on(seen[o], seen[cube]))
            reasons.append(f"{cube} under {'+'.join(above)}" if above else "")
    return reasons


class ReserveCube(_SharedLeaf, StatefulActionNode):
    """Reserve the next cube of this robot's `walk` that is available and has nothing
    resting on it (as perception sees it now): RUNNING while there is none (the other
    robot holds what is left, or something still rests on it), SUCCESS with `cube`.

    Two waits end in FAILURE, told apart by `wait_reason` for the XML to branch on:
    * `hidden`: an available cube has not been seen for `hidden_timeout` s of camera
      time (0 = never): something hides it from the camera, often this robot's own arm
      over its stack, so waiting where it is cannot end; the tree looks from elsewhere.
    * `stalled`: no cube has been free for `timeout` wall seconds while the shared board
      stood still (no cube booked or placed by anyone: the other robot's progress
      restarts the clock; 0 = wait forever); the reason for every cube goes to the log,
      so a wait that cannot end ends the robot's run instead of hanging it.

    Reading the states and writing `reserved:<robot>` happen in one tick, and ticks
    never interleave, so no cube is ever reserved twice."""

    REPORT_PERIOD_S = 10.0

    @staticmethod
    def provided_ports():
        return [_robot_port(), _cubes_port(),
                InputPort("walk", str, description="this robot's order: ';'-separated indices into cubes"),
                InputPort("detections", description="DetectedObjectArray (dict or message) from perception"),
                InputPort("timeout", float, default=120.0, description="wall s to wait for a free cube; 0 = forever"),
                InputPort("hidden_timeout", float, default=0.0,
                          description="camera s an available cube may stay unseen before FAILURE 'hidden'; 0 = never"),
                OutputPort("cube", str, description="the reserved cube"),
                OutputPort("wait_reason", str, description="why the wait failed: hidden | stalled ('' on SUCCESS)")]

    def on_start(self):
        self._started, self._reported, self._states = time.monotonic(), None, None
        self._hidden_since = None
        return self.on_running()

    def on_running(self):
        robot = self.robot()
        try:
            walk = walk_labels(list(self.get_input("cubes")), self.get_input("walk"))
        except PyramidError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': {exc}") from None
        seen = seen_of(self)
        cube = board.reserve_first(self.shared(), robot, walk, free_cubes(seen, walk))
        if cube is not None:
            LOG.info("reserve: %s -> %s", robot, cube)
            self.set_output("cube", cube)
            self._tell_why("")
            return SUCCESS
        if self._hidden_too_long(walk, seen):
            LOG.info("wait: %s cannot see a cube still to take for %.1f s (%s)", robot, self.get_input("hidden_timeout"),
                     "; ".join(r for r in why_not_free(self.shared(), walk, seen) if r))
            self._tell_why("hidden")
            return FAILURE
        now, timeout = time.monotonic(), self.get_input("timeout")
        states = [board.cube_state(self.shared(), c) for c in walk]
        if states != self._states:           # the other robot got on: its cubes may free ours
            self._states, self._started = states, now
        if timeout > 0 and now - self._started >= timeout:
            LOG.warning("wait: %s found no free cube for %.0f s; giving up (%s)", robot, now - self._started,
                        "; ".join(r for r in why_not_free(self.shared(), walk, seen) if r))
            self._tell_why("stalled")
            return FAILURE
        if self._reported is None or now - self._reported >= self.REPORT_PERIOD_S:
            self._reported = now
            LOG.info("wait: %s finds no free cube to reserve (%s)", robot,
                     "; ".join(r for r in why_not_free(self.shared(), walk, seen) if r))
        return RUNNING

    def _tell_why(self, reason: str) -> None:
        if "wait_reason" in self.config.output_ports:      # an optional output: only where the XML reads it
            self.set_output("wait_reason", reason)

    def _hidden_too_long(self, walk, seen) -> bool:
        """True once some available cube of `walk` has gone unseen for `hidden_timeout`
        s of the detections' own clock (their stamps: the same at any real-time factor)."""
        limit = self.get_input("hidden_timeout")
        unseen = [c for c in walk if board.cube_state(self.shared(), c) == board.AVAILABLE and c not in seen]
        if limit <= 0 or not unseen:
            self._hidden_since = None
            return False
        now = detections_stamp(self.get_input("detections", default=None))
        if now is None:
            now = time.monotonic()
        if self._hidden_since is None:
            self._hidden_since = now
        return now - self._hidden_since >= limit

    def on_halted(self):
        pass


class AcquireCenterLock(_SharedLeaf, StatefulActionNode):
    """Take the center-workspace lock (`@center_owner`): RUNNING while the other robot
    holds it, SUCCESS once this robot does. A waiting robot sends no motion goal: the
    motions come after this node in a Sequence. The robots take turns: one that waited
    gets the center before the one that just left it may take it again
    (shared_board.try_lock_center); a halted wait gives its turn up."""

    @staticmethod
    def provided_ports():
        return [_robot_port()]

    def on_start(self):
        self._waiting_logged = False
        return self.on_running()

    def on_running(self):
        robot, shared = self.robot(), self.shared()
        if board.try_lock_center(shared, robot):
            LOG.info("lock: %s enters the center", robot)
            return SUCCESS
        if not self._waiting_logged:
            LOG.info("wait: %s waits for the center (held by %s)", robot, board.center_owner(shared))
            self._waiting_logged = True
        return RUNNING

    def on_halted(self):
        board.stop_waiting_for_center(self.shared(), self.robot())


class ReleaseCenterLock(_SharedLeaf, SyncActionNode):
    """Give the center lock back (after the lift); SUCCESS also when it was not held."""

    @staticmethod
    def provided_ports():
        return [_robot_port()]

    def tick(self):
        robot = self.robot()
        if board.unlock_center(self.shared(), robot):
            LOG.info("unlock: %s leaves the center", robot)
        return SUCCESS


class ReleaseReservation(_SharedLeaf, SyncActionNode):
    """Give back the cube this robot has reserved, if any (it cannot take it after all):
    `available` again for the other robot. SUCCESS either way."""

    @staticmethod
    def provided_ports():
        return [_robot_port(), _cubes_port()]

    def tick(self):
        robot, shared = self.robot(), self.shared()
        cube = board.reservation_of(shared, list(self.get_input("cubes")), robot)
        if cube is not None and board.release_reservation(shared, cube, robot):
            LOG.info("release: %s gives %s back", robot, cube)
        return SUCCESS


class MarkPlaced(_SharedLeaf, SyncActionNode):
    """Book `cube` as placed by this robot (`@cube_state:<cube>` = placed:<robot>)."""

    @staticmethod
    def provided_ports():
        return [_robot_port(), InputPort("cube", str), InputPort("placed", int, default=0,
                                                                  description="cubes on the stack before this one")]

    def tick(self):
        robot, cube = self.robot(), self.get_input("cube")
        board.mark_placed(self.shared(), cube, robot)
        LOG.info("placed: %s put %s at level %d", robot, cube, self.get_input("placed"))
        return SUCCESS


class ReconcileOwnStack(_SharedLeaf, SyncActionNode):
    """Count this robot's stack as it stands: `placed` = its booked cubes still on it.

    A cube booked `placed:<robot>` but seen off the stack (more than `within` across from
    the goal, at no level's height, or on a level another booked cube holds;
    targets.knocked_off) was knocked off: by this robot's own recovery reaching beside
    its stack, or by the other arm. It is booked `available` again, so either robot's
    ReserveCube takes it anew, and `placed` drops, so the next cube goes on the level
    that is really free. A cube not seen counts as still there. Always SUCCESS; the XML
    decides what a lower count means."""

    @staticmethod
    def provided_ports():
        return [_robot_port(), _cubes_port(),
                InputPort("detections", description="DetectedObjectArray (dict or message) from perception"),
                InputPort("goal", str, description="'x;y' of this robot's stack in the world"),
                InputPort("within", float, default=0.03, description="m across from the goal a stacked cube may lie"),
                OutputPort("placed", int, description="cubes on this robot's stack now")]

    def tick(self):
        robot, shared = self.robot(), self.shared()
        booked = board.placed_by(shared, list(self.get_input("cubes")), robot)
        seen = seen_of(self)
        positions = {c: (seen[c].position if c in seen else None) for c in booked}
        gone = geo.knocked_off(positions, goal_xy_of(self), self.get_input("within"))
        for cube in gone:
            board.unbook_placed(shared, cube, robot)
            LOG.warning("restack: %s's %s was knocked off its stack (seen at %s): available again",
                        robot, cube, ", ".join(f"{v:.3f}" for v in positions[cube]))
        self.set_output("placed", len(booked) - len(gone))
        return SUCCESS


SHARED_LEAVES = (SurveyPyramid, ReserveCube, AcquireCenterLock, ReleaseCenterLock, ReleaseReservation, MarkPlaced,
                 ReconcileOwnStack)
