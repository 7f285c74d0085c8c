#!/usr/bin/env python3
"""Checks packaging/vscode/package.json against the shape of VS Code's `debuggers` and
`breakpoints` contributions, and the documented launch configuration against the
launch attributes it declares.

    manifest.py packaging/vscode/package.json LAUNCH_CONFIG.json

VS Code refuses a `debuggers` entry with a member it does not know and offers in
launch.json only the attributes `configurationAttributes` declares; the attributes
`kwb-run debug --dap` reads (DapServer::launch) must all be declared, and each declared
one read. Exits 1 on a finding.
"""
import json
import os
import re
import sys

import jsonschema

# The members VS Code's `debuggers` contribution point takes (its extension-point
# schema has additionalProperties false) and those of `breakpoints`.
DEBUGGER_MEMBERS = {
    "type", "label", "program", "args", "runtime", "runtimeArgs", "variables", "initialConfigurations",
    "languages", "configurationSnippets", "configurationAttributes", "when", "hiddenWhen", "deprecated",
    "windows", "osx", "linux", "strings",
}
BREAKPOINT_MEMBERS = {"language", "when"}
# What VS Code itself adds to a configuration, never the adapter's.
VSCODE_FIELDS = {"type", "request", "name", "preLaunchTask", "postDebugTask", "internalConsoleOptions",
                 "debugServer", "presentation", "suppressMultipleSessionWarning"}


def snippet_value(v):
    """A configurationSnippets body string `^"..."` is JSON text inserted as it is."""
    if isinstance(v, str) and v.startswith('^"'):
        return json.loads(v[1:].replace("\\$", "$"))  # \$ keeps a snippet variable literal
    return v


def main():
    manifest_path, config_path = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    manifest = json.load(open(manifest_path))
    config = json.load(open(config_path))
    findings, ok = [], []

    def need(what, cond, detail=""):
        (ok if cond else findings).append(what + ("" if cond or not detail else f": {detail}"))

    contributes = manifest.get("contributes", {})
    debuggers = contributes.get("debuggers", [])
    need("one debugger contributed", len(debuggers) == 1, len(debuggers))
    d = debuggers[0] if debuggers else {}
    need("the debugger's members are those VS Code takes", set(d) <= DEBUGGER_MEMBERS,
         sorted(set(d) - DEBUGGER_MEMBERS))
    for b in contributes.get("breakpoints", []):
        need(f"breakpoints entry {b}", set(b) <= BREAKPOINT_MEMBERS, sorted(set(b) - BREAKPOINT_MEMBERS))
    kind = d.get("type")
    events = manifest.get("activationEvents", [])
    need("activated for its debug type", "onDebug" in events or f"onDebugResolve:{kind}" in events, events)
    main_file = os.path.join(os.path.dirname(manifest_path), manifest.get("main", ""))
    need("main file exists", os.path.isfile(main_file), main_file)
    if not d.get("program") and not d.get("runtime"):
        text = open(main_file).read() if os.path.isfile(main_file) else ""
        need("no program: the extension registers a DebugAdapterDescriptorFactory for the type",
             f"registerDebugAdapterDescriptorFactory('{kind}'" in text)
    need("engines.vscode given", "vscode" in manifest.get("engines", {}))

    launch = d.get("configurationAttributes", {}).get("launch", {})
    declared = set(launch.get("properties", {}))
    validator = jsonschema.Draft7Validator(launch)

    def check_config(label, c):
        need(f"{label}: type {kind}", c.get("type") == kind, c.get("type"))
        need(f"{label}: request launch", c.get("request") == "launch", c.get("request"))
        own = {k: snippet_value(v) for k, v in c.items() if k not in VSCODE_FIELDS and not k.startswith("__")}
        errors = [e.message for e in validator.iter_errors(own)]
        need(f"{label}: valid against configurationAttributes.launch", not errors, errors)
        need(f"{label}: only declared attributes", set(own) <= declared, sorted(set(own) - declared))

    check_config("docs/debugger.md launch.json", config)
    for i, c in enumerate(d.get("initialConfigurations", [])):
        check_config(f"initialConfigurations[{i}]", c)
    for i, s in enumerate(d.get("configurationSnippets", [])):
        check_config(f"configurationSnippets[{i}] body", s.get("body", {}))

    # The attributes the adapter reads from the launch request.
    source = open(os.path.join(root, "core/debug/DapServer.cpp")).read()
    body = source[source.index("nlohmann::json DapServer::launch("):]
    body = body[: body.index("\n}\n")]
    read = set(re.findall(r'args, "(\w+)"', body)) | set(re.findall(r'args\.find\("(\w+)"\)', body))
    aliases = {"document"}  # another name for program, kept for clients that send it
    need("every attribute the adapter reads is declared", read - aliases <= declared, sorted(read - aliases - declared))
    need("every declared attribute is read by the adapter", declared <= read, sorted(declared - read))

    for o in ok:
        print("  ok   ", o)
    for f in findings:
        print("  FAIL ", f)
    print(f"manifest: {len(ok)} checks passed, {len(findings)} failed")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
