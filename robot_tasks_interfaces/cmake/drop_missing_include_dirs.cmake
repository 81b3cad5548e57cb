# Workaround for the PyPI "ros-*" wheels (include this after ament_package()).
#
# The exported <pkg>__rosidl_generator_py targets of the wheels carry the
# include dirs of the manylinux build machine
# (/opt/python/cp311-cp311/include/python3.11 and its numpy include dir).
# CMake refuses to generate with non-existent INTERFACE_INCLUDE_DIRECTORIES,
# so drop every non-existent include dir from all imported targets.
# (Our own targets already get Python3 + NumPy includes via FindPython3.)
get_directory_property(_imported IMPORTED_TARGETS)
foreach(_t IN LISTS _imported)
  get_target_property(_inc ${_t} INTERFACE_INCLUDE_DIRECTORIES)
  if(_inc)
    set(_keep "")
    foreach(_d IN LISTS _inc)
      if(_d MATCHES "^\\$<" OR EXISTS "${_d}")
        list(APPEND _keep "${_d}")
      endif()
    endforeach()
    set_target_properties(${_t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_keep}")
  endif()
endforeach()
