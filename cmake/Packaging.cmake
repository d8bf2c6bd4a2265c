# SPDX-License-Identifier: MIT
# The man pages and shell completions, generated at build time from the option tables
# (scripts/gen-docs reads `dbt3stab --describe-options`).
include(GNUInstallDirs)
find_package(Python3 COMPONENTS Interpreter REQUIRED)

set(DBT3_GEN_DIR ${CMAKE_BINARY_DIR}/gen)
add_custom_command(
  OUTPUT ${DBT3_GEN_DIR}/stamp
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/gen-docs $<TARGET_FILE:dbt3stab>
          ${CMAKE_SOURCE_DIR} ${DBT3_GEN_DIR}
  COMMAND ${CMAKE_COMMAND} -E touch ${DBT3_GEN_DIR}/stamp
  DEPENDS dbt3stab ${CMAKE_SOURCE_DIR}/scripts/gen-docs ${CMAKE_SOURCE_DIR}/docs/result.schema.json
  COMMENT "Generating the man pages and completions from the option tables")
add_custom_target(docs ALL DEPENDS ${DBT3_GEN_DIR}/stamp)
