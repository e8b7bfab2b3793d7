# report.cmake — the campaign report (`circ fuzz --report`, fuzz/report.h): a 20 s
# fixed-seed campaign (2 jobs) with the planted wrong pass swap-sub, its page rendered
# by headless Chromium and checked against report.json and the terminal summary
# (report_render.sh).  Skipped when chromium is not installed; the screenshot is
# kept as report_render_out/report.png.
add_executable(report_campaign ${CMAKE_CURRENT_SOURCE_DIR}/report_campaign.c)
target_link_libraries(report_campaign PRIVATE circ_fuzz)
add_test(NAME report_render COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report_render.sh
         $<TARGET_FILE:report_campaign> ${CMAKE_CURRENT_BINARY_DIR}/report_render_out 20)
set_tests_properties(report_render PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                     ATTACHED_FILES ${CMAKE_CURRENT_BINARY_DIR}/report_render_out/report.png)

# the report's bookkeeping without a campaign: sampling and thinning, coverage,
# escaping, hits per finding, the final totals (report_unit.c)
add_executable(report_unit ${CMAKE_CURRENT_SOURCE_DIR}/report_unit.c)
target_link_libraries(report_unit PRIVATE circ_fuzz)
add_test(NAME report_unit COMMAND report_unit ${CMAKE_CURRENT_BINARY_DIR}/report_unit_out)

# circ fuzz --report on the command line: help, files, reproduce command, bad folders
add_test(NAME report_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/report_cli.sh $<TARGET_FILE:circ>
         ${CMAKE_CURRENT_BINARY_DIR}/report_cli_out)
