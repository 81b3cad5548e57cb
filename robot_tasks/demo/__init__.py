"""robot_tasks.demo — end-to-end demo runs (`robot-tasks demo <task>`).

runner.py starts the node set, runs a task's tree and writes the run folder; what is
task-specific (phases, disturbance rules, grader, followers) is the task's DemoTask, in its
own package (robot_tasks/tasks/<task>/episode.py). run_watcher.py follows the run, the
montage and trace are drawn here, and episodes.py loops seeded episodes for the benches.
"""
