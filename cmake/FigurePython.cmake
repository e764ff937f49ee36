# The figures are drawn by Python scripts that need matplotlib, the report by
# one that needs Jinja2, the animations by one that also reads PLY with
# meshio and writes GIF with Pillow. Debian's python3-matplotlib,
# python3-jinja2, python3-meshio and python3-pil install for Debian's own
# interpreter; another python3
# earlier on PATH (pyenv, conda) may lack them, so test each candidate.
set(_candidates)
find_program(_python_on_path NAMES python3 NO_CACHE)
if(_python_on_path)
  list(APPEND _candidates "${_python_on_path}")
endif()
list(APPEND _candidates /usr/bin/python3)
set(CONTACTREF_PYTHON "")
foreach(candidate IN LISTS _candidates)
  if(EXISTS "${candidate}")
    execute_process(COMMAND "${candidate}" -c "import matplotlib, numpy, jinja2, meshio, PIL"
                    RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(_rc EQUAL 0)
      set(CONTACTREF_PYTHON "${candidate}")
      break()
    endif()
  endif()
endforeach()
# Also in the cache, for scripts/reproduce.sh (the report).
set(CONTACTREF_PYTHON_FOR_SCRIPTS "${CONTACTREF_PYTHON}" CACHE INTERNAL "python3 that imports matplotlib")
if(CONTACTREF_PYTHON)
  message(STATUS "contactref: figures use ${CONTACTREF_PYTHON}")
else()
  message(WARNING "contactref: no python3 with matplotlib, numpy, jinja2, meshio and PIL; `contactref figures` will fail")
endif()
