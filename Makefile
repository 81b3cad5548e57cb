# One-command setup: `make test` builds everything it needs into .venv, then runs pytest.
# Each step leaves a stamp in .venv/.stamps so re-running skips finished work.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMPS := $(VENV)/.stamps
PIP    := $(BIN)/pip install --disable-pip-version-check -q
IFACE_SRC := $(shell find robot_tasks_interfaces -type f -not -path '*/build/*' 2>/dev/null)
TF2_SRC   := $(shell find tf2_msgs robot_tasks_interfaces/cmake -type f -not -path '*/build/*' 2>/dev/null)
# The real drivers' message packages (not on PyPI either), one folder each, built like tf2_msgs
DRIVER_MSGS := control_msgs controller_manager_msgs franka_msgs ur_msgs

.PHONY: setup lint test demo bench clean colcon-check

setup: $(STAMPS)/package $(STAMPS)/colcon

$(STAMPS)/venv:
	@echo "==> creating $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(PIP) -U pip
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/ros: requirements/ros.txt $(STAMPS)/venv
	@echo "==> installing ROS 2 Kilted wheels"
	$(PIP) -r requirements/ros.txt
	@touch $@

$(STAMPS)/interfaces: $(STAMPS)/ros $(IFACE_SRC)
	@echo "==> building robot_tasks_interfaces (about 70 s the first time)"
	$(PIP) ./robot_tasks_interfaces
	@touch $@

# tf2_msgs/TFMessage (for /tf, /tf_static) is not on PyPI: built from its field list.
$(STAMPS)/tf2_msgs: $(STAMPS)/ros $(TF2_SRC)
	@echo "==> building tf2_msgs (about 60 s the first time)"
	$(PIP) ./tf2_msgs
	@touch $@

# The parts of control_msgs, controller_manager_msgs, franka_msgs and ur_msgs that the real
# drivers use, built from upstream's field lists (hash-equal: test/msgs). One stamp each, rebuilt
# when its folder or the shared cmake recipe changes.
$(foreach p,$(DRIVER_MSGS),$(eval $(STAMPS)/$(p): $(shell find $(p) robot_tasks_interfaces/cmake -type f -not -path '*/build/*' 2>/dev/null)))
$(DRIVER_MSGS:%=$(STAMPS)/%): $(STAMPS)/%: $(STAMPS)/ros
	@echo "==> building $* (about 20-30 s)"
	$(PIP) ./$*
	@touch $@

# colcon, ament_cmake and the rosidl generators: what `colcon build` of this checkout needs on the
# pip stack (make colcon-check; a ROS 2 user's workspace)
$(STAMPS)/colcon: requirements/colcon.txt $(STAMPS)/ros
	@echo "==> installing colcon and the ament_cmake / rosidl build tools"
	$(PIP) -r requirements/colcon.txt
	@touch $@

$(STAMPS)/package: setup.py $(STAMPS)/interfaces $(STAMPS)/tf2_msgs $(DRIVER_MSGS:%=$(STAMPS)/%)
	@echo "==> installing robot_tasks with its sim, perception, control, groot2, monitor, foxglove, record, test and bench extras"
	$(PIP) -e '.[sim,perception,control,groot2,monitor,foxglove,record,test,bench]'
	@touch $@

# ruff.toml: pyflakes' checks and sorted imports, over the package, the tests, benches and tools
lint: setup
	$(BIN)/ruff check robot_tasks test bench tools setup.py

test: setup lint
	$(BIN)/python -m pytest

# The checkout as a ROS 2 user builds it: colcon in a throw-away workspace (build/colcon_ws), then
# a check of the install tree (tools/colcon_check.py; `make test` runs it too, test/tools/)
colcon-check: setup
	$(BIN)/python tools/colcon_check.py build/colcon_ws

# The first thing to run: a simulated Franka stacks four cubes; writes runs/<time>/.
demo: setup
	$(BIN)/robot-tasks demo franka_stacking --out runs

# Every benchmark prints its numbers next to a baseline measured in the same run.
bench: setup
	@for b in bt_tick ik perception sim_rate ros_roundtrip foxglove_bridge; do \
	  echo "==> bench/$$b.py"; $(BIN)/python bench/$$b.py || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info robot_tasks_interfaces/build tf2_msgs/build $(DRIVER_MSGS:%=%/build)
