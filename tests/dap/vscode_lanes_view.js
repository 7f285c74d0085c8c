// The VS Code extension's Lanes view (packaging/vscode) against a real adapter: the
// extension is loaded with a stand-in for the `vscode` module that records what it
// registers and draws, and its session's customRequest goes to `kwb-run debug --dap`.
// Stopped at the tree reduction's addition (samples/reduction_shared.kwb, in[i] = i), the
// view must show warp 0's 32 lanes with tid = lane and stride = 128, then the columns
// chosen (partial(tid) = lane, partial(tid + stride) = lane + 128), a refused expression
// as the adapter's message, and the end of the session.
//   node vscode_lanes_view.js KWB_RUN DOCUMENT EXTENSION_DIR
'use strict';
const { spawn } = require('child_process');
const Module = require('module');
const path = require('path');
const assert = require('assert');

const [kwbRun, documentPath, extensionDir] = process.argv.slice(2);
if (!kwbRun || !documentPath || !extensionDir) {
    console.error('usage: node vscode_lanes_view.js KWB_RUN DOCUMENT EXTENSION_DIR');
    process.exit(2);
}

// --- the adapter, spoken to as VS Code does -------------------------------------------
const adapter = spawn(kwbRun, ['debug', '--dap'], { stdio: ['pipe', 'pipe', 'inherit'] });
let seq = 1;
const pending = new Map();
const listeners = [];
let buffer = Buffer.alloc(0);
adapter.stdout.on('data', chunk => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0)
            return;
        const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
        if (buffer.length < end + 4 + length)
            return;
        const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
        buffer = buffer.subarray(end + 4 + length);
        if (message.type === 'response') {
            const p = pending.get(message.request_seq);
            pending.delete(message.request_seq);
            if (message.success)
                p.resolve(message.body || {});
            else
                p.reject(new Error(message.message || (message.body && message.body.error && message.body.error.format)));
        }
        for (const l of listeners)
            l(message);
    }
});
function request(command, args) {
    const s = seq++;
    const body = JSON.stringify({ seq: s, type: 'request', command, arguments: args });
    adapter.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return new Promise((resolve, reject) => pending.set(s, { resolve, reject }));
}
function nextEvent(name, test = () => true) {
    return new Promise(resolve => {
        const l = m => {
            if (m.type === 'event' && m.event === name && test(m)) {
                listeners.splice(listeners.indexOf(l), 1);
                resolve(m);
            }
        };
        listeners.push(l);
    });
}

// --- the stand-in for VS Code's API -----------------------------------------------------
const registered = { factories: {}, trackers: {}, commands: {} };
const panels = [];
let inputBoxAnswer;
const vscode = {
    ViewColumn: { Beside: -2 },
    DebugAdapterExecutable: class { constructor(command, args) { this.command = command; this.args = args; } },
    workspace: { getConfiguration: () => ({ get: () => undefined }) },
    debug: {
        registerDebugAdapterDescriptorFactory: (type, f) => { registered.factories[type] = f; return { dispose() {} }; },
        registerDebugAdapterTrackerFactory: (type, f) => { registered.trackers[type] = f; return { dispose() {} }; },
    },
    commands: { registerCommand: (name, f) => { registered.commands[name] = f; return { dispose() {} }; } },
    window: {
        createWebviewPanel: (viewType, title) => {
            const panel = { viewType, title, webview: { html: '' }, reveal() {}, onDidDispose() {} };
            panels.push(panel);
            return panel;
        },
        showInputBox: async () => inputBoxAnswer,
    },
};
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
const extension = require(path.resolve(extensionDir, 'extension.js'));

const rows = html => (html.match(/<tr class="/g) || []).length;
// The cells of lane L's row, as text.
const cells = (html, lane) => {
    const row = html.split('\n').find(r => r.startsWith('<tr') && r.includes(`<td>${lane}</td><td class="state">`));
    assert.ok(row, `no row for lane ${lane}`);
    return [...row.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map(m => m[1]);
};
// The view draws when the adapter answers its request, after the stop: waits for that.
async function redrawn(panel, before) {
    for (let waited = 0; panel.webview.html === before || panel.webview.html.includes('No warp is stopped.'); waited += 20) {
        assert.ok(waited < 20000, 'the Lanes view was not drawn again after the stop');
        await new Promise(r => setTimeout(r, 20));
    }
}
const headers = html => [...html.matchAll(/<th>([^<]*)<\/th>/g)].map(m => m[1]);

async function main() {
    const context = { subscriptions: [] };
    extension.activate(context);
    const descriptor = registered.factories['kernel-workbench'].createDebugAdapterDescriptor();
    assert.deepStrictEqual(descriptor.args, ['debug', '--dap']);
    assert.ok(registered.trackers['kernel-workbench'], 'no tracker for the debug type');
    assert.ok(registered.commands['kernelWorkbench.showLanes'] && registered.commands['kernelWorkbench.laneColumns']);

    // VS Code's session object: customRequest goes to the adapter; its tracker sees every message.
    const session = { type: 'kernel-workbench', customRequest: (command, args) => request(command, args) };
    const tracker = registered.trackers['kernel-workbench'].createDebugAdapterTracker(session);
    listeners.push(m => tracker.onDidSendMessage(m));

    await registered.commands['kernelWorkbench.showLanes']();
    assert.strictEqual(panels.length, 1);
    const panel = panels[0];
    assert.strictEqual(panel.title, 'Lanes');
    assert.ok(panel.webview.html.includes('No warp is stopped.'), panel.webview.html);

    await request('initialize', { clientID: 'vscode', adapterID: 'kernel-workbench', linesStartAt1: true, columnsStartAt1: true });
    const initialized = nextEvent('initialized');
    const entry = nextEvent('stopped');
    await request('launch', { program: path.resolve(documentPath), trust: true, stopOnEntry: true });
    await initialized;
    await request('configurationDone', {});
    await entry;
    await redrawn(panel, '');
    const atEntry = panel.webview.html;
    await request('evaluate', { expression: 'break 18', context: 'repl' });
    const atAddition = nextEvent('stopped', m => m.body.reason === 'breakpoint');
    await request('continue', { threadId: 1 });
    await atAddition;
    await redrawn(panel, atEntry);

    let html = panel.webview.html;
    assert.strictEqual(rows(html), 32, html);
    assert.ok(html.includes('Block 0, warp 0'), html);
    const h = headers(html);
    assert.deepStrictEqual(h.slice(0, 3), ['Lane', 'State', 'Thread']);
    const tid = h.indexOf('tid'), stride = h.indexOf('stride');
    assert.ok(tid > 2 && stride > 2, `columns ${h}`);
    for (const lane of [0, 5, 31]) {
        const c = cells(html, lane);
        assert.strictEqual(c[1], 'active');
        assert.strictEqual(c[2], String(lane));
        assert.strictEqual(c[tid], String(lane));
        assert.strictEqual(c[stride], '128');
    }

    inputBoxAnswer = 'partial(tid); partial(tid + stride)';
    await registered.commands['kernelWorkbench.laneColumns']();
    html = panel.webview.html;
    assert.deepStrictEqual(headers(html), ['Lane', 'State', 'Thread', 'partial(tid)', 'partial(tid + stride)']);
    for (let lane = 0; lane < 32; ++lane) {
        const c = cells(html, lane);
        assert.strictEqual(Number(c[3]), lane);
        assert.strictEqual(Number(c[4]), lane + 128);
    }

    inputBoxAnswer = 'no_such_name';
    await registered.commands['kernelWorkbench.laneColumns']();
    html = panel.webview.html;
    assert.strictEqual(rows(html), 0);
    assert.ok(/no_such_name/.test(html), html);

    tracker.onExit();
    assert.ok(panel.webview.html.includes('The debug session ended.'));
    await request('disconnect', {}).catch(() => {});
    adapter.stdin.end();
    console.log('the Lanes view: 32 lanes at the addition, the chosen columns, a refused expression, the end: ok');
}

main().then(() => process.exit(0), e => { console.error(e); adapter.kill(); process.exit(1); });
