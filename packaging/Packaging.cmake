# CPack configuration. Built with: cmake --build build --target package
set(CPACK_PACKAGE_NAME "tracefold")
set(CPACK_PACKAGE_VENDOR "Tracefold")
set(CPACK_PACKAGE_CONTACT "Tracefold maintainers <maintainers@tracefold.dev>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR "TGZ")
include(CPack)
