# Install rules for the desktop integration, and the CPack packages. Included at the end of the top CMakeLists.txt,
# so every target exists here. Built with: cmake --build build --target package (see packaging/README.md).
#
# One version (PROJECT_VERSION) and one reverse-DNS id (TRACEFOLD_APP_ID) flow into every file below: the desktop
# file, the AppStream metainfo, the MIME type, the icon names, the man pages and the package names.

# The date of the PROJECT_VERSION release, for the metainfo <release> and the man pages. Bump it with the version.
set(TRACEFOLD_RELEASE_DATE "2026-12-03")
set(TRACEFOLD_RECORDING_MIME "application/x-agentfootprint-recording")
# Where the .deb and .rpm install; the man pages name paths under it.
set(TRACEFOLD_PACKAGE_PREFIX "/usr")

set(TRACEFOLD_ICON_SVG ${PROJECT_SOURCE_DIR}/resources/icons/tracefold.svg)
set(TRACEFOLD_SAMPLE ${PROJECT_SOURCE_DIR}/resources/samples/tracefold-sample.json)
set(TRACEFOLD_DESKTOP_SOURCE_DIR ${PROJECT_SOURCE_DIR}/resources/desktop)
set(TRACEFOLD_PACKAGING_BINARY_DIR ${PROJECT_BINARY_DIR}/packaging)

# The installed programs that exist in this configuration; each gets a man page, none a RUNPATH.
set(TRACEFOLD_PROGRAMS "")
foreach(program tracefold tracefold-cli tracefold-report-pdf)
    if(TARGET ${program})
        list(APPEND TRACEFOLD_PROGRAMS ${program})
    endif()
endforeach()

foreach(required ${TRACEFOLD_SAMPLE} ${TRACEFOLD_ICON_SVG})
    if(NOT EXISTS ${required})
        message(WARNING "Packaging: ${required} is missing; the packages will lack it")
    endif()
endforeach()

# The icon renderer: a build-time host tool (QSvgRenderer) that turns the one SVG into the raster sizes a platform
# wants. Never installed. tracefold_render_icon(<target> <out-list-var> SIZE FILE [SIZE FILE ...]) adds a target
# that renders them; <out-list-var> receives the files.
if(TRACEFOLD_BUILD_GUI)
    find_package(Qt6 6.4 REQUIRED COMPONENTS Svg)
    add_executable(tracefold-rendericon ${CMAKE_CURRENT_LIST_DIR}/tools/rendericon.cpp)
    target_link_libraries(tracefold-rendericon PRIVATE Qt::Gui Qt::Svg tracefold_warnings)
    target_compile_definitions(tracefold-rendericon PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII)
endif()

function(tracefold_render_icon target out_var)
    set(outputs "")
    set(pairs ${ARGN})
    while(pairs)
        list(POP_FRONT pairs size file)
        list(APPEND outputs ${file})
    endwhile()
    add_custom_command(OUTPUT ${outputs}
        COMMAND tracefold-rendericon ${TRACEFOLD_ICON_SVG} ${ARGN}
        DEPENDS tracefold-rendericon ${TRACEFOLD_ICON_SVG}
        COMMENT "Rendering ${TRACEFOLD_ICON_SVG} for ${target}"
        VERBATIM)
    add_custom_target(${target} ALL DEPENDS ${outputs})
    set(${out_var} ${outputs} PARENT_SCOPE)
endfunction()

set(CPACK_PACKAGE_NAME "tracefold")
set(CPACK_PACKAGE_VENDOR "Tracefold")
set(CPACK_RPM_PACKAGE_LICENSE "MIT")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
set(CPACK_PACKAGE_CONTACT "Tracefold maintainers <maintainers@tracefold.dev>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# Wrapped by hand: dpkg shows the lines as they are.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
    "Tracefold opens the recording of an agentfootprint agent run and steps"
    "through every LLM call. At each call it shows what the model was served:"
    "the findings ledger as it was folded at that call, the findings piece"
    "rebuilt byte for byte, which tool results went out as collapse tickets,"
    "whether the cached system prefix could be reused, and whether the"
    "recording's own receipt hashes agree with what Tracefold rebuilt."
    ""
    "The package holds the desktop application (tracefold) and the headless"
    "tool (tracefold-cli), which also writes reviewers' reports as HTML or PDF.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Tracefold")
# Values reach the generators exactly as written here (no second round of CMake escaping for NSIS text).
set(CPACK_VERBATIM_VARIABLES ON)
# The build is RelWithDebInfo; packages ship stripped binaries.
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build[^/]*/" "/\\.cache/")

if(UNIX AND NOT APPLE)
    # --- Linux: FHS layout under CMAKE_INSTALL_PREFIX (the packages use /usr) ---------------------------------
    set(datadir ${CMAKE_INSTALL_DATADIR})
    set(TRACEFOLD_SAMPLE_INSTALL_DIR ${datadir}/tracefold/samples)
    set(TRACEFOLD_MAN_DATADIR ${TRACEFOLD_PACKAGE_PREFIX}/${datadir})
    set(TRACEFOLD_MAN_SAMPLE ${TRACEFOLD_MAN_DATADIR}/tracefold/samples/tracefold-sample.json)

    install(FILES ${TRACEFOLD_SAMPLE} DESTINATION ${TRACEFOLD_SAMPLE_INSTALL_DIR})
    install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${datadir}/doc/tracefold)

    # A man page for each installed program, gzipped as Debian policy asks (-n: no name or time stamp, so the
    # packages are reproducible).
    find_program(TRACEFOLD_GZIP gzip)
    set(man_outputs "")
    foreach(program ${TRACEFOLD_PROGRAMS})
        set(page_file ${TRACEFOLD_PACKAGING_BINARY_DIR}/man/${program}.1)
        configure_file(${CMAKE_CURRENT_LIST_DIR}/man/${program}.1.in ${page_file} @ONLY)
        if(TRACEFOLD_GZIP)
            add_custom_command(OUTPUT ${page_file}.gz
                COMMAND ${TRACEFOLD_GZIP} -9 -n -k -f ${page_file}
                DEPENDS ${page_file}
                VERBATIM)
            list(APPEND man_outputs ${page_file}.gz)
        else()
            list(APPEND man_outputs ${page_file})
        endif()
    endforeach()
    add_custom_target(tracefold_man_pages ALL DEPENDS ${man_outputs})
    install(FILES ${man_outputs} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

    if(TRACEFOLD_BUILD_GUI)
        set(desktop_out ${TRACEFOLD_PACKAGING_BINARY_DIR}/desktop)
        configure_file(${TRACEFOLD_DESKTOP_SOURCE_DIR}/tracefold.desktop.in
            ${desktop_out}/${TRACEFOLD_APP_ID}.desktop @ONLY)
        configure_file(${TRACEFOLD_DESKTOP_SOURCE_DIR}/tracefold.metainfo.xml.in
            ${desktop_out}/${TRACEFOLD_APP_ID}.metainfo.xml @ONLY)
        configure_file(${TRACEFOLD_DESKTOP_SOURCE_DIR}/tracefold-mime.xml.in
            ${desktop_out}/${TRACEFOLD_APP_ID}.xml @ONLY)
        install(FILES ${desktop_out}/${TRACEFOLD_APP_ID}.desktop DESTINATION ${datadir}/applications)
        install(FILES ${desktop_out}/${TRACEFOLD_APP_ID}.metainfo.xml DESTINATION ${datadir}/metainfo)
        install(FILES ${desktop_out}/${TRACEFOLD_APP_ID}.xml DESTINATION ${datadir}/mime/packages)

        # hicolor icons: the SVG as scalable, and the fixed sizes rendered from it.
        set(TRACEFOLD_ICON_SIZES 16 32 48 64 128 256)
        set(render_args "")
        foreach(size ${TRACEFOLD_ICON_SIZES})
            list(APPEND render_args ${size} ${TRACEFOLD_PACKAGING_BINARY_DIR}/icons/${TRACEFOLD_APP_ID}-${size}.png)
        endforeach()
        file(MAKE_DIRECTORY ${TRACEFOLD_PACKAGING_BINARY_DIR}/icons)
        tracefold_render_icon(tracefold_hicolor_icons hicolor_pngs ${render_args})
        foreach(size ${TRACEFOLD_ICON_SIZES})
            install(FILES ${TRACEFOLD_PACKAGING_BINARY_DIR}/icons/${TRACEFOLD_APP_ID}-${size}.png
                DESTINATION ${datadir}/icons/hicolor/${size}x${size}/apps RENAME ${TRACEFOLD_APP_ID}.png)
        endforeach()
        install(FILES ${TRACEFOLD_ICON_SVG}
            DESTINATION ${datadir}/icons/hicolor/scalable/apps RENAME ${TRACEFOLD_APP_ID}.svg)
    endif()

    # qt_standard_project_setup() gives every target an install RUNPATH of $ORIGIN:$ORIGIN/../lib, for bundles that
    # carry their own libraries. These packages carry none and use the system's, and Debian policy wants no RUNPATH.
    set_property(TARGET ${TRACEFOLD_PROGRAMS} PROPERTY INSTALL_RPATH "")

    # The Debian and RPM tooling is the one the build machine has; RPM is left out (with a note) without rpmbuild,
    # so `--target package` still works on a machine set up by `./dev.sh run`.
    set(CPACK_GENERATOR "DEB;TGZ")
    find_program(TRACEFOLD_RPMBUILD rpmbuild)
    if(TRACEFOLD_RPMBUILD)
        list(INSERT CPACK_GENERATOR 1 "RPM")
    else()
        message(STATUS "Packaging: rpmbuild not found, the package target builds DEB and TGZ only")
    endif()
    # The .deb and .rpm install under /usr (their generators' default, TRACEFOLD_PACKAGE_PREFIX); the .tar.gz holds
    # bin/ and share/ under one top directory, to unpack under any prefix.
    set(CPACK_PACKAGE_FILE_NAME "tracefold-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")

    # .deb: tracefold_<version>-1_<arch>.deb. dpkg-shlibdeps computes the library dependencies; Qt's platform
    # plugins (xcb, offscreen) are loaded at run time, so shlibdeps cannot see them and they are named here. No
    # maintainer scripts: dpkg triggers of shared-mime-info, desktop-file-utils and the icon caches see the files.
    set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
    set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
    # The SVG icon engine draws the window icon. Native Wayland is a suggestion only: it pulls in Qt Quick, and
    # without it Qt runs through XWayland.
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libqt6svg6")
    set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-wayland")
    set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
    set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
    set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
    set(CPACK_DEBIAN_COMPRESSION_TYPE "xz")

    # .rpm: tracefold-<version>-1.<arch>.rpm; library requirements come from rpm's own autoreq.
    set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
    set(CPACK_RPM_PACKAGE_RELEASE 1)
    set(CPACK_RPM_PACKAGE_GROUP "Development/Tools")
    set(CPACK_RPM_PACKAGE_URL "${PROJECT_HOMEPAGE_URL}")
    set(CPACK_RPM_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
    set(CPACK_RPM_COMPRESSION_TYPE "xz")
    # The package owns its files, not the shared directories they go into.
    set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
        /usr/share/applications /usr/share/metainfo /usr/share/mime /usr/share/mime/packages /usr/share/man
        /usr/share/man/man1 /usr/share/icons /usr/share/icons/hicolor)
    set(icon_dirs "")
    foreach(size ${TRACEFOLD_ICON_SIZES})
        list(APPEND icon_dirs ${size}x${size})
    endforeach()
    foreach(dir ${icon_dirs} scalable)
        list(APPEND CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION /usr/share/icons/hicolor/${dir}
            /usr/share/icons/hicolor/${dir}/apps)
    endforeach()
    # No /usr/lib/.build-id links: they would clash with other packages built the same way.
    set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none")

elseif(WIN32)
    # --- Windows: NSIS installer (default) or WiX MSI, plus a ZIP. NOT BUILT ON THIS MACHINE. ---------------------
    # Written to be built on Windows with the MSVC Qt 6 kit and NSIS 3 (or WiX 3) on PATH; see packaging/README.md.
    # The core maps recordings with POSIX mmap (core/io/mappedfile.cpp); a Windows build needs a MapViewOfFile path
    # there first.
    if(TRACEFOLD_BUILD_GUI)
        # The .ico for the executable, the installer and the file association, rendered from the same SVG.
        set(ico ${TRACEFOLD_PACKAGING_BINARY_DIR}/tracefold.ico)
        tracefold_render_icon(tracefold_windows_icon ico_files 256 ${ico})
        set(TRACEFOLD_WINDOWS_ICO ${ico})
        configure_file(${CMAKE_CURRENT_LIST_DIR}/windows/tracefold.rc.in ${TRACEFOLD_PACKAGING_BINARY_DIR}/tracefold.rc
            @ONLY)
        target_sources(tracefold PRIVATE ${TRACEFOLD_PACKAGING_BINARY_DIR}/tracefold.rc)
        set_source_files_properties(${TRACEFOLD_PACKAGING_BINARY_DIR}/tracefold.rc PROPERTIES OBJECT_DEPENDS ${ico})
        add_dependencies(tracefold tracefold_windows_icon)

        # windeployqt, run at install time on the installed tracefold.exe: Qt DLLs, platform and image plugins.
        qt_generate_deploy_app_script(TARGET tracefold OUTPUT_SCRIPT tracefold_deploy_script
            NO_UNSUPPORTED_PLATFORM_ERROR)
        install(SCRIPT ${tracefold_deploy_script})
        set(CPACK_PACKAGE_EXECUTABLES "tracefold" "Tracefold")
        set(CPACK_NSIS_MUI_ICON ${ico})
        set(CPACK_NSIS_MUI_UNIICON ${ico})
        set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\tracefold.exe")
        set(CPACK_WIX_PRODUCT_ICON ${ico})
    endif()
    install(FILES ${TRACEFOLD_SAMPLE} DESTINATION samples)
    install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION doc)

    set(CPACK_GENERATOR "NSIS;ZIP")
    set(CPACK_PACKAGE_FILE_NAME "Tracefold-${PROJECT_VERSION}-Windows-${CMAKE_SYSTEM_PROCESSOR}")
    set(CPACK_NSIS_PACKAGE_NAME "Tracefold ${PROJECT_VERSION}")
    set(CPACK_NSIS_DISPLAY_NAME "Tracefold ${PROJECT_VERSION}")
    set(CPACK_NSIS_URL_INFO_ABOUT "${PROJECT_HOMEPAGE_URL}")
    set(CPACK_NSIS_CONTACT "${CPACK_PACKAGE_CONTACT}")
    set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
    # Puts bin\ (tracefold-cli.exe) on PATH when the user ticks the box.
    set(CPACK_NSIS_MODIFY_PATH ON)
    # Windows matches files on their last extension only, so *.afrec.json cannot get a type of its own without taking
    # every .json. Tracefold registers a ProgID and offers itself under "Open with" for .json instead.
    set(progid "${TRACEFOLD_APP_ID}.Recording")
    set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "
        WriteRegStr SHCTX 'Software\\Classes\\${progid}' '' 'agentfootprint run recording'
        WriteRegStr SHCTX 'Software\\Classes\\${progid}\\DefaultIcon' '' '$INSTDIR\\bin\\tracefold.exe,0'
        WriteRegStr SHCTX 'Software\\Classes\\${progid}\\shell\\open\\command' '' '\"$INSTDIR\\bin\\tracefold.exe\" \"%1\"'
        WriteRegStr SHCTX 'Software\\Classes\\.json\\OpenWithProgids' '${progid}' ''
        System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'")
    set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "
        DeleteRegValue SHCTX 'Software\\Classes\\.json\\OpenWithProgids' '${progid}'
        DeleteRegKey SHCTX 'Software\\Classes\\${progid}'
        System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'")
    # WiX (cpack -G WIX): the upgrade code must never change, so that a new MSI replaces the old one.
    set(CPACK_WIX_UPGRADE_GUID "6C1F4E8A-3B27-4D5E-9A61-2F0B7C4D8E93")
    set(CPACK_WIX_PROGRAM_MENU_FOLDER "Tracefold")
    set(CPACK_WIX_PROPERTY_ARPURLINFOABOUT "${PROJECT_HOMEPAGE_URL}")

elseif(APPLE)
    # --- macOS: tracefold.app bundle in a DMG (CPack DragNDrop). NOT BUILT ON THIS MACHINE. ------------------------
    # Written to be built on macOS with the Qt 6 macOS kit and Xcode's command-line tools; see packaging/README.md.
    if(TRACEFOLD_BUILD_GUI)
        # The .icns from the SVG: an iconset of the sizes iconutil wants, then iconutil.
        set(iconset ${TRACEFOLD_PACKAGING_BINARY_DIR}/tracefold.iconset)
        set(icns ${TRACEFOLD_PACKAGING_BINARY_DIR}/tracefold.icns)
        file(MAKE_DIRECTORY ${iconset})
        set(render_args "")
        foreach(size 16 32 128 256 512)
            math(EXPR double "${size} * 2")
            list(APPEND render_args ${size} ${iconset}/icon_${size}x${size}.png
                ${double} ${iconset}/icon_${size}x${size}@2x.png)
        endforeach()
        tracefold_render_icon(tracefold_iconset iconset_pngs ${render_args})
        find_program(TRACEFOLD_ICONUTIL iconutil REQUIRED)
        add_custom_command(OUTPUT ${icns}
            COMMAND ${TRACEFOLD_ICONUTIL} -c icns -o ${icns} ${iconset}
            DEPENDS ${iconset_pngs}
            VERBATIM)
        add_custom_target(tracefold_icns DEPENDS ${icns})
        add_dependencies(tracefold tracefold_icns)
        target_sources(tracefold PRIVATE ${icns})
        set_source_files_properties(${icns} PROPERTIES GENERATED TRUE MACOSX_PACKAGE_LOCATION Resources)

        # Info.plist: the id and version from here, the document types for recordings and JSON.
        configure_file(${CMAKE_CURRENT_LIST_DIR}/macos/Info.plist.in ${TRACEFOLD_PACKAGING_BINARY_DIR}/Info.plist.in
            @ONLY)
        set_target_properties(tracefold PROPERTIES
            MACOSX_BUNDLE_INFO_PLIST ${TRACEFOLD_PACKAGING_BINARY_DIR}/Info.plist.in
            MACOSX_BUNDLE_GUI_IDENTIFIER ${TRACEFOLD_APP_ID}
            MACOSX_BUNDLE_BUNDLE_NAME "Tracefold"
            MACOSX_BUNDLE_BUNDLE_VERSION ${PROJECT_VERSION}
            MACOSX_BUNDLE_SHORT_VERSION_STRING ${PROJECT_VERSION}
            MACOSX_BUNDLE_ICON_FILE tracefold.icns)

        # macdeployqt, run at install time on the installed bundle: Qt frameworks and plugins into the bundle.
        qt_generate_deploy_app_script(TARGET tracefold OUTPUT_SCRIPT tracefold_deploy_script
            NO_UNSUPPORTED_PLATFORM_ERROR)
        install(SCRIPT ${tracefold_deploy_script})
        install(FILES ${TRACEFOLD_SAMPLE} DESTINATION tracefold.app/Contents/Resources/samples)
    endif()

    set(CPACK_GENERATOR "DragNDrop")
    set(CPACK_PACKAGE_FILE_NAME "Tracefold-${PROJECT_VERSION}-macOS")
    set(CPACK_DMG_VOLUME_NAME "Tracefold ${PROJECT_VERSION}")
    set(CPACK_DMG_FORMAT "UDZO")
endif()

include(CPack)
