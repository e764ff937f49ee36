# Sourced by the browser tests: node, Debian's chromium (or
# $CONTACTREF_CHROMIUM) and puppeteer-core, test-only packages
# (scripts/debian-packages.txt, [tests]) that scripts/test.sh installs; exits
# 1 naming the one missing. Exports CONTACTREF_CHROMIUM, the chromium found
# here, which the page checks drive.
for tool in node "${CONTACTREF_CHROMIUM:-chromium}"; do
  command -v "$tool" > /dev/null || { echo "$tool is not installed: scripts/test.sh (scripts/bootstrap.sh) installs it" >&2; exit 1; }
done
export CONTACTREF_CHROMIUM=$(command -v "${CONTACTREF_CHROMIUM:-chromium}")
if [[ ! -d $(dirname "${BASH_SOURCE[0]}")/node_modules/puppeteer-core ]]; then
  echo "puppeteer-core is not installed in tests/browser: scripts/test.sh (scripts/bootstrap.sh) installs it" >&2; exit 1
fi
