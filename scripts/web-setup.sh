#!/usr/bin/env bash
# Installs what the browser tests (emulator/browser) need when it is
# missing: Debian's Chromium. Node.js and npm come with the machine; the test
# itself runs `npm ci` and `npm run build` in web/ when they are out of date.
# Run by scripts/test.sh; fast when everything is there.
set -euo pipefail
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "web-setup: the web client needs Node.js (20.19 or later) and npm" >&2
  exit 1
fi
if [ ! -x /usr/bin/chromium ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  echo "web-setup: installing Debian's chromium for the browser tests" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
