# Warnings in one place; -Werror behind ENABLE_WERROR (CI turns it on).
set(DBT3_WARNINGS -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes
    -Wvla -Wformat-security -Wshadow)
add_compile_options(${DBT3_WARNINGS})
if(ENABLE_WERROR)
  add_compile_options(-Werror)
endif()
if(ENABLE_SANITIZERS)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
