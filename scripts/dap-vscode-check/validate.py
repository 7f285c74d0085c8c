#!/usr/bin/env python3
"""Checks a recorded Debug Adapter Protocol conversation against the protocol's JSON schema.

    validate.py debugProtocol.json CLIENT_TO_ADAPTER.bin ADAPTER_TO_CLIENT.bin

The two files are the raw bytes of each direction (Content-Length frames), as
scripts/dap-vscode-check.sh records them. Every request is checked against its
`XRequest` definition, every response against `XResponse` (an unsuccessful one against
`ErrorResponse`), every event against `XEvent`; custom requests against the base
`Request`/`Response`. Beyond the schema: the adapter's `seq` counts 1, 2, 3... over its
responses and events; each request has one response with its `request_seq` and
`command`; a field the schema does not name where it names the fields is reported
(a misspelt field is silently ignored by a client). Prints one line per finding and a
summary; exits 1 when the schema or the sequence rules are broken or a field is unnamed.
"""
import json
import sys

import jsonschema


def frames(path):
    data = open(path, "rb").read()
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            raise SystemExit(f"{path}: a header without its blank line: {head[:80]!r}")
        length = None
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        if length is None or len(rest) < length:
            raise SystemExit(f"{path}: a frame without a whole Content-Length body")
        out.append(json.loads(rest[:length].decode("utf-8")))
        data = rest[length:]
    return out


class Schema:
    def __init__(self, path):
        self.doc = json.load(open(path))
        self.defs = self.doc["definitions"]
        self.requests, self.events = {}, {}
        for name, d in self.defs.items():
            for part in d.get("allOf", []):
                props = part.get("properties", {})
                if name.endswith("Request") and "command" in props and "enum" in props["command"]:
                    self.requests[props["command"]["enum"][0]] = name
                if name.endswith("Event") and "event" in props and "enum" in props["event"]:
                    self.events[props["event"]["enum"][0]] = name

    def validator(self, name):
        schema = {"$ref": f"#/definitions/{name}", "definitions": self.defs}
        return jsonschema.Draft7Validator(schema)

    def resolve(self, node):
        while "$ref" in node:
            node = self.defs[node["$ref"].split("/")[-1]]
        return node

    def named_fields(self, node):
        """The properties a schema node names (through $ref and allOf), or None when it names none."""
        node = self.resolve(node)
        props = dict(node.get("properties", {}))
        for part in node.get("allOf", []):
            more = self.named_fields(part)
            if more:
                props.update(more)
        return props or None

    def unknown_fields(self, value, node, where, out):
        """Fields of `value` the schema's `node` does not name, recursively."""
        node = self.resolve(node)
        if isinstance(value, dict):
            props = self.named_fields(node)
            if props is None or node.get("additionalProperties") not in (None, False):
                return
            for key, v in value.items():
                if key not in props:
                    out.append(f"{where}.{key}")
                else:
                    self.unknown_fields(v, props[key], f"{where}.{key}", out)
        elif isinstance(value, list) and "items" in node:
            for i, v in enumerate(value):
                self.unknown_fields(v, node["items"], f"{where}[{i}]", out)


def main():
    schema = Schema(sys.argv[1])
    sent, received = frames(sys.argv[2]), frames(sys.argv[3])
    violations, unknown, notes = [], [], []
    # Launch and attach arguments are the adapter's own (the launch configuration).
    own_arguments = {"launch", "attach"}

    def check(message, name, label):
        errors = sorted(schema.validator(name).iter_errors(message), key=lambda e: list(e.path))
        for e in errors:
            path = "/".join(str(p) for p in e.path)
            violations.append(f"{label}: {name} at /{path}: {e.message}")
        found = []
        schema.unknown_fields(message, schema.defs[name], label, found)
        # A response or event whose definition gives it no body (an acknowledgement):
        # the base definition lets any body through, the protocol names none of its fields.
        own = [p for p in schema.defs[name].get("allOf", [])[1:] if "properties" in p]
        if name not in ("Request", "Response", "Event", "ErrorResponse") and isinstance(message.get("body"), dict) \
                and not any("body" in p["properties"] for p in own):
            found += [f"{label}.body.{k}" for k in message["body"]]
        if label.startswith("request") and message.get("command") in own_arguments:
            found = [f for f in found if ".arguments." not in f]
        unknown.extend(found)

    requests = {}
    for m in sent:
        label = f"request {m.get('seq')} {m.get('command')}"
        requests[m.get("seq")] = m
        check(m, schema.requests.get(m.get("command"), "Request"), label)

    expected_seq = 1
    answered = set()
    counts = {"response": 0, "event": 0}
    for m in received:
        kind = m.get("type")
        counts[kind] = counts.get(kind, 0) + 1
        if m.get("seq") != expected_seq:
            violations.append(f"adapter seq {m.get('seq')} where {expected_seq} was due ({kind})")
        expected_seq = m.get("seq", expected_seq) + 1
        if kind == "response":
            label = f"response {m.get('seq')} to {m.get('request_seq')} {m.get('command')}"
            request = requests.get(m.get("request_seq"))
            if request is None:
                violations.append(f"{label}: answers no request")
            elif request.get("command") != m.get("command"):
                violations.append(f"{label}: the request was {request.get('command')}")
            if m.get("request_seq") in answered:
                violations.append(f"{label}: a second response")
            answered.add(m.get("request_seq"))
            if not m.get("success"):
                name = "ErrorResponse"
                notes.append(f"{label}: error: {m.get('message')}")
            else:
                request_name = schema.requests.get(m.get("command"))
                name = request_name[: -len("Request")] + "Response" if request_name else "Response"
                if name not in schema.defs:
                    name = "Response"
            check(m, name, label)
        elif kind == "event":
            label = f"event {m.get('seq')} {m.get('event')}"
            check(m, schema.events.get(m.get("event"), "Event"), label)
        else:
            violations.append(f"message {m.get('seq')}: type {kind!r}")
    for seq, request in requests.items():
        if seq not in answered:
            violations.append(f"request {seq} {request.get('command')}: no response")

    for n in notes:
        print("note:", n)
    for u in sorted(set(unknown)):
        print("field the schema does not name:", u)
    for v in violations:
        print("VIOLATION:", v)
    print(
        f"schema check: {len(sent)} requests, {counts['response']} responses, {counts['event']} events; "
        f"{len(violations)} violations, {len(set(unknown))} fields the schema does not name"
    )
    return 1 if violations or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
