"""spin_until_shutdown: an error raised once SIGINT/SIGTERM shut the context down is the
shutdown (rclpy 9.1's take-after-shutdown race), an error while running is a real one.

The executor here is a stand-in that raises on cue; the context is a real rclpy one.
"""
import pytest

from robot_tasks.ros.spin import spin_until_shutdown


class RaisingExecutor:
    def __init__(self, context, error, shut_down_first):
        self.context, self.error, self.shut_down_first = context, error, shut_down_first

    def spin(self):
        if self.shut_down_first:
            self.context.try_shutdown()
        raise self.error


@pytest.fixture
def context(ros_env):
    import rclpy
    from rclpy.context import Context

    ctx = Context()
    rclpy.init(context=ctx)
    yield ctx
    ctx.try_shutdown()


def test_error_raised_after_shutdown_ends_the_spin_quietly(context):
    race = RuntimeError("Unable to convert call argument '0' to Python object")
    spin_until_shutdown(RaisingExecutor(context, race, shut_down_first=True), context=context)
    assert not context.ok()


def test_error_raised_while_running_propagates(context):
    with pytest.raises(RuntimeError, match="callback failed"):
        spin_until_shutdown(RaisingExecutor(context, RuntimeError("callback failed"), shut_down_first=False),
                            context=context)


def test_ctrl_c_ends_the_spin(context):
    spin_until_shutdown(RaisingExecutor(context, KeyboardInterrupt(), shut_down_first=False), context=context)
