# `make package`: a Debian package of svc-server built by CPack (docs/adr/0064): the binary, its
# assets (SDK, console, demo shop, content pool) under /usr/share/svc, a sandboxed systemd unit,
# the example configuration as a conffile, the nginx edge file, the docs, and maintainer scripts
# that create the svc system user and its private data dir. Included from native-server/.
install(TARGETS svc-server RUNTIME DESTINATION bin)
# build/share/svc holds everything the server serves, the SDK included (written by the Wasm build).
install(DIRECTORY ${SVC_ASSETS_DIR}/ DESTINATION share/svc)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/systemd/svc.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/svc.conf DESTINATION /etc/svc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/deploy/ DESTINATION share/svc/deploy PATTERN debian EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/docs/operations.md ${PROJECT_SOURCE_DIR}/docs/integration.md DESTINATION share/doc/svc)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME svc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Product-recommendation widgets, feeds, GraphQL and tracking for online shops")
set(CPACK_PACKAGE_CONTACT "svc maintainers <svc@example.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION web)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps: the exact Debian libraries svc-server links
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nginx, prometheus")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/deploy/debian/postinst ${PROJECT_SOURCE_DIR}/deploy/debian/prerm
    ${PROJECT_SOURCE_DIR}/deploy/debian/postrm ${PROJECT_SOURCE_DIR}/deploy/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/package)
set(CPACK_PACKAGE_CHECKSUM SHA256)
include(CPack)
