#!/usr/bin/env bash
# Opens a run report in headless Chromium and checks that it renders the branch tree. Not run by
# CI (Chromium is not part of the build); run it by hand where Chromium is installed:
#
#   tests/report_in_chromium.sh RUN_DIR
#
# The report has no scripts, so there are no script errors to catch; this checks that a real
# browser parses it and that the rendered DOM holds the tree, the timeline and the calls.
set -euo pipefail
run_dir=${1:?usage: tests/report_in_chromium.sh RUN_DIR}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "no chromium here (apt-get install chromium)" >&2
  exit 2
fi
report=$(mktemp --suffix=.html)
cargo run --quiet -- report "$run_dir" -o "$report"
dom=$("$browser" --headless --disable-gpu --no-sandbox --dump-dom "file://$report" 2>/dev/null)
for needle in 'id="tree"' '<svg' 'Host calls'; do
  grep -qF "$needle" <<<"$dom" || { echo "the rendered report lacks $needle" >&2; exit 1; }
done
echo "ok: $report renders with the branch tree"
