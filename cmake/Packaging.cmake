# SPDX-License-Identifier: MIT
# The man pages and shell completions, generated at build time from the option tables
# (scripts/gen-docs reads `dbt3stab --describe-options`), what `cmake --install` installs, and the
# Debian package (`cpack -G DEB`, docs/install.md).
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

# Where bash-completion loads completions on demand: its pkg-config variable, made relative to
# its prefix so that the install prefix applies; share/bash-completion/completions without it.
set(DBT3_BASH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
find_program(PKG_CONFIG_EXECUTABLE pkg-config)
if(PKG_CONFIG_EXECUTABLE)
  execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --variable=completionsdir bash-completion
                  OUTPUT_VARIABLE bc_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --variable=prefix bash-completion
                  OUTPUT_VARIABLE bc_prefix OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(bc_dir AND bc_prefix AND bc_dir MATCHES "^${bc_prefix}/")
    file(RELATIVE_PATH DBT3_BASH_COMPLETION_DIR ${bc_prefix} ${bc_dir})
  endif()
endif()

install(DIRECTORY ${DBT3_GEN_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR})
install(FILES ${DBT3_GEN_DIR}/completion/bash/dbt3stab DESTINATION ${DBT3_BASH_COMPLETION_DIR})
install(FILES ${DBT3_GEN_DIR}/completion/zsh/_dbt3stab
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs USE_SOURCE_PERMISSIONS)

# cpack -G DEB: Depends from dpkg-shlibdeps; the server and Valgrind (run --instructions)
# recommended, Chromium (the HTML report's check) suggested.
set(CPACK_PACKAGE_NAME dbt3stab)
set(CPACK_PACKAGE_CONTACT "dbt3stab maintainers <dbt3stab@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "restart-aware DBT-3 query regression suite for MariaDB and MySQL")
set(CPACK_PACKAGE_DESCRIPTION
    "dbt3stab generates DBT-3 (TPC-H) data, loads it into a private server instance, measures \
the 22 queries over several server restarts and flags the regressions that exceed the \
restart-to-restart variance.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mariadb-server, valgrind")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "chromium")
include(CPack)
