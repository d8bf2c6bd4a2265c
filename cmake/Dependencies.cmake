# Finds the libraries dbt3stab links; a missing one names its Debian package.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config (or run scripts/install-deps)")
endif()
find_package(Threads REQUIRED)

# dbt3_require(<prefix> <pkg-config names...> DEBIAN <package>)
function(dbt3_require prefix)
  cmake_parse_arguments(ARG "" "DEBIAN;DESCRIPTION" "MODULES" ${ARGN})
  pkg_search_module(${prefix} IMPORTED_TARGET ${ARG_MODULES})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR "${ARG_DESCRIPTION} not found (pkg-config: ${ARG_MODULES}): "
                        "apt-get install ${ARG_DEBIAN} (or run scripts/install-deps)")
  endif()
  set_package_properties(${prefix} PROPERTIES DESCRIPTION "${ARG_DESCRIPTION}" TYPE REQUIRED)
  set(${prefix}_FOUND ${${prefix}_FOUND} PARENT_SCOPE)
endfunction()

dbt3_require(MYSQL MODULES mysqlclient libmariadb mariadb DEBIAN libmariadb-dev-compat
             DESCRIPTION "libmysqlclient API")
dbt3_require(HWLOC MODULES hwloc DEBIAN libhwloc-dev DESCRIPTION "hwloc")
dbt3_require(GSL MODULES gsl DEBIAN libgsl-dev DESCRIPTION "GNU Scientific Library")
dbt3_require(JANSSON MODULES jansson DEBIAN libjansson-dev DESCRIPTION "jansson JSON library")
dbt3_require(SQLITE MODULES sqlite3 DEBIAN libsqlite3-dev
             DESCRIPTION "SQLite (the history store)")
dbt3_require(ZLIB MODULES zlib DEBIAN zlib1g-dev DESCRIPTION "zlib (the server's symbol list)")
dbt3_require(CRYPTO MODULES libcrypto DEBIAN libssl-dev DESCRIPTION "OpenSSL libcrypto (SHA-256)")
if(BUILD_TESTS)
  dbt3_require(CUNIT MODULES cunit DEBIAN libcunit1-dev DESCRIPTION "CUnit")
endif()
