#!/usr/bin/env bash
# Drives `kwb-run debug --dap` as VS Code does, with VS Code's own debug-adapter test
# client, through the teacher's walk of samples/reduction_shared.kwb, and checks every
# message against the Debug Adapter Protocol's JSON schema (docs/debugger.md, "Checked
# with VS Code's test client").
#   scripts/dap-vscode-check.sh VSCODE_DEBUGADAPTER_NODE DEBUG_ADAPTER_PROTOCOL
# The two arguments are source trees (or bare git directories) of Microsoft's
# github.com/microsoft/vscode-debugadapter-node and github.com/microsoft/debug-adapter-protocol:
# the first gives DebugClient (testSupport/, compiled here with tsc), the second the schema
# (debugAdapterProtocol.json). Needs node, tsc (Debian's node-typescript) and Python's
# jsonschema (python3-jsonschema); kwb-run from KW_BUILD_DIR (default: build).
# Not a ctest: the two trees are not part of this project.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_BUILD_DIR:-$root/build}
kwb_run=$build_dir/bin/kwb-run
[ $# -eq 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
[ -x "$kwb_run" ] || { echo "no $kwb_run: build it (scripts/build.sh kwb-run)" >&2; exit 2; }
for tool in node tsc python3; do
    command -v $tool >/dev/null || { echo "$tool is needed (apt-get install nodejs node-typescript python3-jsonschema)" >&2; exit 2; }
done
python3 -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema is needed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A source tree as it is, or a bare git directory's HEAD.
tree() {
    if [ -d "$1/.git" ] || [ ! -f "$1/HEAD" ]; then
        echo "$1"
    else
        mkdir -p "$work/$2"
        git --git-dir="$1" archive HEAD | tar -x -C "$work/$2"
        echo "$work/$2"
    fi
}
node_tree=$(tree "$1" node)
protocol_tree=$(tree "$2" protocol)
schema=$protocol_tree/debugAdapterProtocol.json
[ -f "$schema" ] || schema=$node_tree/debugProtocol.json
[ -d "$node_tree/testSupport/src" ] || { echo "$1: no testSupport/src (vscode-debugadapter-node)" >&2; exit 2; }

# DebugClient from its TypeScript. Its types import @vscode/debugprotocol (the protocol/
# folder of the same tree) and Node's own modules, whose declarations Debian lacks: tsc
# reports those and still writes the JavaScript, which needs neither.
mkdir -p "$work/ts/node_modules/@vscode/debugprotocol"
cp -r "$node_tree/testSupport/src" "$work/ts/src"
cp "$node_tree/protocol/src/debugProtocol.ts" "$work/ts/node_modules/@vscode/debugprotocol/index.ts"
(cd "$work/ts" && tsc --target ES2022 --module commonjs --moduleResolution node --skipLibCheck \
    --outDir lib src/main.ts >"$work/tsc.log" 2>&1) || true
[ -f "$work/ts/lib/main.js" ] || { cat "$work/tsc.log" >&2; echo "tsc wrote no lib/main.js" >&2; exit 1; }

# The adapter as DebugClient starts it (`runtime executable`).
printf '#!/bin/sh\nexec "%s" debug --dap\n' "$kwb_run" >"$work/adapter.sh"

# The launch configuration docs/debugger.md gives for .vscode/launch.json, with
# \${workspaceFolder} the project's folder and the fields VS Code adds.
python3 - "$root" "$work/launch.json" <<'EOF'
import json, re, sys
root, out = sys.argv[1], sys.argv[2]
text = open(f"{root}/docs/debugger.md").read()
block = re.search(r"Then `\.vscode/launch\.json`:\s*```json\n(.*?)```", text, re.S).group(1)
config = json.loads(block)["configurations"][0]
config = json.loads(json.dumps(config).replace("${workspaceFolder}", root))
config["__configurationTarget"] = 6
config["__sessionId"] = "00000000-0000-0000-0000-000000000001"
json.dump(config, open(out, "w"))
EOF

# The extension's manifest against VS Code's `debuggers` contribution.
python3 "$root/scripts/dap-vscode-check/manifest.py" "$root/packaging/vscode/package.json" "$work/launch.json" \
    || status=1

echo "walk (DebugClient, $(node --version)):"
timeout 600 node "$root/scripts/dap-vscode-check/walk.js" "$work/ts/lib" "$work/adapter.sh" "$work/launch.json" \
    "$work/to-adapter.bin" "$work/from-adapter.bin" || status=1
echo "schema ($schema):"
python3 "$root/scripts/dap-vscode-check/validate.py" "$schema" "$work/to-adapter.bin" "$work/from-adapter.bin" \
    || status=1
exit ${status:-0}
