#!/usr/bin/env bash
# Runs test_adapter.py (mock-server + adapter, both protocols). Extra arguments pass through,
# e.g. --only qrt.tools --keep.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec python3 "$here/test_adapter.py" "$@"
