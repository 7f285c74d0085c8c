// The teacher's walk through samples/reduction_shared.kwb, driven as VS Code drives a
// debug adapter: through DebugClient, the test client of Microsoft's
// vscode-debugadapter-node (@vscode/debugadapter-testsupport), compiled from its sources
// by scripts/dap-vscode-check.sh (which passes its lib folder).
//
//   node walk.js TESTSUPPORT_LIB ADAPTER_WRAPPER LAUNCH_CONFIG.json TO_ADAPTER FROM_ADAPTER
//
// ADAPTER_WRAPPER is a shell script that execs `kwb-run debug --dap` (DebugClient
// starts `runtime executable`: /bin/sh and the wrapper). LAUNCH_CONFIG is the launch.json
// configuration docs/debugger.md gives, ${workspaceFolder} resolved. Every value is
// compared with the host's tree reduction of block 0 (in = 0, 1, ..., 255). The bytes
// of each direction are written to TO_ADAPTER and FROM_ADAPTER (for validate.py).
// Prints one line per assertion and exits 1 when one fails.
'use strict';
const path = require('path');
const fs = require('fs');
const { DebugClient } = require(path.resolve(process.argv[2], 'main.js'));

const wrapper = process.argv[3];
const config = JSON.parse(fs.readFileSync(process.argv[4], 'utf8'));
const recorded = { to: [], from: [] };
function record() {
    fs.writeFileSync(process.argv[5], Buffer.concat(recorded.to));
    fs.writeFileSync(process.argv[6], Buffer.concat(recorded.from));
}

let passed = 0, failed = 0;
function check(what, ok, detail) {
    if (ok) {
        passed++;
        console.log(`  ok    ${what}`);
    } else {
        failed++;
        console.log(`  FAIL  ${what}${detail === undefined ? '' : ': ' + detail}`);
    }
}
function step(text) { console.log(`- ${text}`); }

// The host's reduction of block 0: the shared array after the step of each stride.
const BLOCK = 256;
const after = {};
{
    const p = Array.from({ length: BLOCK }, (_, i) => i);
    for (let stride = BLOCK / 2; stride > 0; stride >>= 1) {
        for (let t = 0; t < stride; t++) p[t] += p[t + stride];
        after[stride] = p.slice();
    }
}

// `lanes EXPR...` in the Debug Console: lane, state, thread, then a column per expression.
function laneTable(text) {
    const rows = {};
    for (const line of text.split('\n').slice(1)) {
        const cells = line.trim().split(/\s+/);
        if (cells.length >= 4 && /^\d+$/.test(cells[0]))
            rows[+cells[0]] = { state: cells[1], thread: +cells[2], values: cells.slice(3).map(Number) };
    }
    return rows;
}

function sameLanes(rows, column, expected) {
    const wrong = [];
    for (let lane = 0; lane < 32; lane++)
        if (!rows[lane] || rows[lane].values[column] !== expected(lane))
            wrong.push(`lane ${lane}: ${rows[lane] ? rows[lane].values[column] : 'missing'} (host ${expected(lane)})`);
    return wrong;
}

async function main() {
    const dc = new DebugClient('/bin/sh', wrapper, 'kernel-workbench');
    dc.defaultTimeout = 120000; // the launch compiles the kernel first
    // Both directions recorded as they pass, bytes as sent.
    const connect = dc.connect.bind(dc);
    dc.connect = (readable, writable) => {
        readable.on('data', d => recorded.from.push(Buffer.from(d)));
        const write = writable.write.bind(writable);
        writable.write = (chunk, ...rest) => {
            recorded.to.push(Buffer.from(chunk));
            return write(chunk, ...rest);
        };
        connect(readable, writable);
    };
    await dc.start();
    const adapterExit = new Promise(resolve => dc._adapterProcess.on('exit', code => resolve(code)));
    const events = [];
    for (const name of ['stopped', 'output', 'breakpoint', 'exited', 'terminated', 'initialized'])
        dc.on(name, e => events.push(e));
    const stopped = () => dc.waitForEvent('stopped');

    step('initialize (the arguments VS Code sends)');
    const init = await dc.initializeRequest({
        clientID: 'vscode', clientName: 'Visual Studio Code', adapterID: 'kernel-workbench', pathFormat: 'path',
        linesStartAt1: true, columnsStartAt1: true, supportsVariableType: true, supportsVariablePaging: true,
        supportsRunInTerminalRequest: true, locale: 'en', supportsProgressReporting: true,
        supportsInvalidatedEvent: true, supportsMemoryReferences: true, supportsArgsCanBeInterpretedByShell: true,
        supportsMemoryEvent: true, supportsStartDebuggingRequest: true, supportsANSIStyling: true,
    });
    const caps = init.body || {};
    for (const c of ['supportsConfigurationDoneRequest', 'supportsStepBack', 'supportsDataBreakpoints',
                     'supportsConditionalBreakpoints', 'supportsSteppingGranularity'])
        check(`capability ${c}`, caps[c] === true, JSON.stringify(caps[c]));

    step(`launch ${JSON.stringify(config)}`);
    const initialized = dc.waitForEvent('initialized');
    const entry = stopped();
    await dc.launchRequest(config);
    await initialized;
    check('initialized event after launch', true);
    // What VS Code sends once the adapter is initialized: the (empty) data breakpoints, the
    // exception filters, then configurationDone.
    await dc.setDataBreakpointsRequest({ breakpoints: [] });
    await dc.setExceptionBreakpointsRequest({ filters: [] });
    await dc.configurationDoneRequest();
    const first = await entry;
    check('stopped at entry (stopOnEntry)', first.body.reason === 'entry', first.body.reason);

    step('threads, stackTrace, source: open kernel.cu from the Call Stack');
    const threads = (await dc.threadsRequest()).body.threads;
    check('8 threads, the warps of block 0', threads.length === 8 && threads[0].name === 'block 0 warp 0',
          JSON.stringify(threads.map(t => t.name)));
    const top = (await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 1 })).body.stackFrames[0];
    check('top frame in block_sum at line 5', top.line === 5 && /block_sum/.test(top.name), `${top.name} ${top.line}`);
    const source = top.source;
    check('the inline source by reference', source && source.sourceReference > 0, JSON.stringify(source));
    const text = (await dc.sourceRequest({ source, sourceReference: source.sourceReference })).body.content;
    const addLine = text.split('\n').findIndex(l => l.includes('partial[tid] += partial[tid + stride];')) + 1;
    check('the source has the tree reduction\'s addition', addLine > 0, addLine);

    step(`setBreakpoints at line ${addLine} of ${source.name}, continue`);
    const bps = (await dc.setBreakpointsRequest({ source, lines: [addLine], breakpoints: [{ line: addLine }],
                                                  sourceModified: false })).body.breakpoints;
    check('breakpoint verified at the line', bps.length === 1 && bps[0].verified && bps[0].line === addLine,
          JSON.stringify(bps));
    let stop = stopped();
    await dc.continueRequest({ threadId: 1 });
    let s = await stop;
    check('stopped at the breakpoint, its id among hitBreakpointIds',
          s.body.reason === 'breakpoint' && (s.body.hitBreakpointIds || []).includes(bps[0].id), JSON.stringify(s.body));
    let frames = (await dc.stackTraceRequest({ threadId: s.body.threadId, startFrame: 0, levels: 20 })).body.stackFrames;
    check(`stack top at line ${addLine}`, frames[0].line === addLine, frames[0].line);

    step('scopes, variables: Locals for lane 0 and tid expanded to the 32 lanes');
    let scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    const scope = name => scopes.find(x => x.name.startsWith(name));
    check('scopes Locals, Lane, PTX registers, Lanes, Shared memory, Buffers',
          ['Locals', 'Lane ', 'PTX registers', 'Lanes', 'Shared memory', 'Buffers'].every(scope),
          JSON.stringify(scopes.map(x => x.name)));
    let locals = (await dc.variablesRequest({ variablesReference: scope('Locals').variablesReference })).body.variables;
    const local = name => locals.find(v => v.name === name);
    check('tid = 0, stride = 128', local('tid') && local('tid').value === '0' && local('stride')
          && local('stride').value === '128', JSON.stringify(locals.map(v => [v.name, v.value])));
    const tidLanes = (await dc.variablesRequest({ variablesReference: local('tid').variablesReference })).body.variables;
    check('tid expands to 32 lanes, lane L = L', tidLanes.length === 32
          && tidLanes.every((v, l) => Number(v.value) === l), JSON.stringify(tidLanes.slice(0, 3)));

    step('the lane table (Debug Console): lanes tid, stride, partial(tid), partial(tid + stride)');
    let table = laneTable((await dc.evaluateRequest({ expression: 'lanes tid, stride, partial(tid), partial(tid + stride)',
                                                     context: 'repl', frameId: frames[0].id })).body.result);
    check('32 lanes, all active', Object.keys(table).length === 32 && Object.values(table).every(r => r.state === '#'));
    let wrong = sameLanes(table, 2, l => l).concat(sameLanes(table, 3, l => l + 128));
    check('partial(tid) = t and partial(tid + 128) = t + 128 in every lane', wrong.length === 0, wrong.join('; '));

    step('the lanes request (the adapter\'s own): the same table as values');
    let lanes = (await dc.customRequest('lanes', { threadId: 1, expressions: ['partial(tid)', 'partial(tid + stride)'] }))
        .body;
    wrong = lanes.lanes.filter(r => r.state !== 'active' || r.thread !== r.lane || r.values[0].value !== r.lane
                               || r.values[1].value !== r.lane + 128).map(r => JSON.stringify(r));
    check('lanes request: 32 active lanes, lane t adds t and t + 128', lanes.lanes.length === 32 && wrong.length === 0,
          wrong.join('; '));

    step('what VS Code is refused or told: an unread expression, a line past the end, stepOut of the kernel, pause');
    let refused = await dc.evaluateRequest({ expression: 'no_such_name + 1', context: 'watch', frameId: frames[0].id })
        .then(() => null, e => e.message);
    check('evaluate of an unknown name: an error response with a message', typeof refused === 'string' && refused.length > 0,
          refused);
    const far = (await dc.setBreakpointsRequest({ source, breakpoints: [{ line: addLine }, { line: 400 }] })).body.breakpoints;
    check('a breakpoint past the last line: not verified, with a message; the other kept',
          far.length === 2 && far[0].verified && !far[1].verified && typeof far[1].message === 'string',
          JSON.stringify(far));
    refused = await dc.stepOutRequest({ threadId: 1 }).then(() => null, e => e.message);
    check('stepOut of the kernel\'s own frame refused', typeof refused === 'string', refused);
    stop = stopped();
    await dc.pauseRequest({ threadId: 1 });
    s = await stop;
    check('pause while stopped: the stop repeated with reason pause', s.body.reason === 'pause', s.body.reason);
    stop = stopped();
    const moved = (await dc.evaluateRequest({ expression: 'lane 5', context: 'repl', frameId: frames[0].id })).body;
    s = await stop;
    scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    check('lane 5 in the Debug Console: a stopped event, and the Lane scope is lane 5', s.body.text.includes('lane 5')
          && scopes.some(x => x.name.startsWith('Lane 5 ')), `${moved.result} / ${JSON.stringify(scopes.map(x => x.name))}`);
    stop = stopped();
    await dc.evaluateRequest({ expression: 'lane 0', context: 'repl', frameId: frames[0].id });
    await stop;

    step('stepIn (one instruction): granularity instruction, on the same line');
    stop = stopped();
    await dc.stepInRequest({ threadId: 1, granularity: 'instruction' });
    s = await stop;
    frames = (await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 1 })).body.stackFrames;
    check(`a step stop of warp 0, still on line ${addLine}`, s.body.reason === 'step' && s.body.threadId === 1
          && frames[0].line === addLine, `${s.body.reason} thread ${s.body.threadId} line ${frames[0].line}`);
    // VS Code reads the rest of the stack as a second request, and hovers evaluate.
    const rest = (await dc.stackTraceRequest({ threadId: 1, startFrame: 1, levels: 19 })).body;
    check('the rest of the stack: none (no inlined call here)', rest.stackFrames.length === 0 && rest.totalFrames === 1,
          JSON.stringify(rest));
    const hover = (await dc.evaluateRequest({ expression: 'stride', context: 'hover', frameId: frames[0].id })).body;
    check('hover on stride: 128, expandable to the lanes', hover.result === '128' && hover.variablesReference > 0,
          JSON.stringify(hover));

    step('next: the warp\'s sums are stored');
    stop = stopped();
    await dc.nextRequest({ threadId: 1 });
    s = await stop;
    frames = (await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 20 })).body.stackFrames;
    check(`step stop on line ${addLine + 1}`, s.body.reason === 'step' && frames[0].line === addLine + 1,
          `${s.body.reason} ${frames[0].line}`);
    table = laneTable((await dc.evaluateRequest({ expression: 'lanes partial(tid)', context: 'repl',
                                                 frameId: frames[0].id })).body.result);
    wrong = sameLanes(table, 0, l => after[128][l]);
    check('lanes partial(tid) = 2t + 128 (host, stride 128)', wrong.length === 0, wrong.join('; '));
    scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    const sharedRef = scope('Shared memory').variablesReference;
    check('Shared memory has 256 words', scope('Shared memory').indexedVariables === 256,
          scope('Shared memory').indexedVariables);
    // VS Code shows 256 indexed words in chunks of 100 and asks for a chunk when it is opened.
    const chunk = (await dc.variablesRequest({ variablesReference: sharedRef, filter: 'indexed', start: 200, count: 56 }))
        .body.variables;
    check('the chunk [200..255] of shared memory: 56 words from byte 800', chunk.length === 56
          && chunk[0].name.startsWith('byte 800'), chunk.length && chunk[0].name);
    let words = (await dc.variablesRequest({ variablesReference: sharedRef, filter: 'indexed', start: 0, count: 32 }))
        .body.variables;
    const wordValue = v => Number((/f32 (\S+)/.exec(v.value) || [])[1]);
    wrong = words.map((v, i) => (wordValue(v) === after[128][i] ? null : `${v.name}: ${v.value}`)).filter(x => x);
    check('shared words 0-31 hold the host\'s sums, each with its bank', words.length === 32 && wrong.length === 0
          && words.every((v, i) => v.name.includes(`bank ${i}`)), wrong.join('; '));

    step('watch one shared word: dataBreakpointInfo on word 0 (partial[0]), setDataBreakpoints write');
    scopes = (await dc.scopesRequest({ frameId: (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].id }))
        .body.scopes;
    words = (await dc.variablesRequest({ variablesReference: scope('Shared memory').variablesReference, start: 0,
                                         count: 1 })).body.variables;
    const info = (await dc.dataBreakpointInfoRequest({ variablesReference: scope('Shared memory').variablesReference,
                                                       name: words[0].name })).body;
    check('word 0 can be watched, for writes', typeof info.dataId === 'string' && (info.accessTypes || []).includes('write'),
          JSON.stringify(info));
    const dbps = (await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId, accessType: 'write' }] }))
        .body.breakpoints;
    check('data breakpoint verified', dbps.length === 1 && dbps[0].verified, JSON.stringify(dbps));
    await dc.setBreakpointsRequest({ source, lines: [], breakpoints: [] });

    step('continue from write to write of partial[0]: the strides 64, 32, ..., 1');
    for (let stride = 64; stride >= 1; stride >>= 1) {
        stop = stopped();
        await dc.continueRequest({ threadId: 1 });
        s = await stop;
        check(`stride ${stride}: stopped by the data breakpoint`, s.body.reason === 'data breakpoint'
              && (s.body.hitBreakpointIds || []).includes(dbps[0].id), JSON.stringify(s.body));
        frames = (await dc.stackTraceRequest({ threadId: s.body.threadId })).body.stackFrames;
        const value = (await dc.evaluateRequest({ expression: 'partial(0)', context: 'watch', frameId: frames[0].id }))
            .body.result;
        check(`stride ${stride}: watch partial(0) = ${after[stride][0]}`, Number(value) === after[stride][0], value);
        table = laneTable((await dc.evaluateRequest({ expression: 'lanes stride partial(tid)', context: 'repl',
                                                     frameId: frames[0].id })).body.result);
        wrong = sameLanes(table, 0, () => stride).concat(sameLanes(table, 1, l => after[stride][l]));
        check(`stride ${stride}: the 32 lanes' partial sums as the host's`, wrong.length === 0, wrong.join('; '));
        lanes = (await dc.customRequest('lanes', { threadId: 1, expressions: ['partial(tid)'] })).body;
        wrong = lanes.lanes.filter(r => r.values[0].value !== after[stride][r.lane]
                                   || r.state !== (r.lane < stride ? 'active' : 'diverged'))
            .map(r => `lane ${r.lane} ${r.state} ${r.values[0].text}`);
        check(`stride ${stride}: lanes request: the sums, lanes below ${stride} active and the rest waiting`,
              lanes.lanes.length === 32 && wrong.length === 0, wrong.join('; '));
        scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
        words = (await dc.variablesRequest({ variablesReference: scope('Shared memory').variablesReference, start: 0,
                                             count: 32 })).body.variables;
        wrong = words.map((v, i) => (wordValue(v) === after[stride][i] ? null : `${v.name}: ${v.value}`)).filter(x => x);
        check(`stride ${stride}: shared words 0-31 as the host's`, wrong.length === 0, wrong.join('; '));
    }

    step('stepBack: before the last write of partial[0]');
    stop = stopped();
    await dc.stepBackRequest({ threadId: 1 });
    s = await stop;
    frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    let value = (await dc.evaluateRequest({ expression: 'partial(0)', context: 'watch', frameId: frames[0].id })).body.result;
    check(`stepBack: a step stop on line ${addLine}, partial(0) = ${after[2][0]} again`,
          s.body.reason === 'step' && frames[0].line === addLine && Number(value) === after[2][0],
          `${s.body.reason} line ${frames[0].line} partial(0) ${value}`);

    step('reverseContinue: back to the write of stride 2');
    stop = stopped();
    await dc.reverseContinueRequest({ threadId: 1 });
    s = await stop;
    frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    value = (await dc.evaluateRequest({ expression: 'partial(0)', context: 'watch', frameId: frames[0].id })).body.result;
    check(`reverseContinue: the data breakpoint's earlier hit, partial(0) = ${after[2][0]}`,
          s.body.reason === 'data breakpoint' && Number(value) === after[2][0], `${s.body.reason} ${value}`);

    step('clear the data breakpoint, continue to the end; block_sums(0)');
    await dc.setDataBreakpointsRequest({ breakpoints: [] });
    stop = stopped();
    await dc.continueRequest({ threadId: 1 });
    s = await stop;
    check('the launch finished', s.body.reason === 'finished', s.body.reason);
    value = (await dc.evaluateRequest({ expression: 'block_sums(0)', context: 'watch' })).body.result;
    check(`block_sums(0) = ${after[1][0]}`, Number(value) === after[1][0], value);

    step('terminate, disconnect');
    const terminated = dc.waitForEvent('terminated');
    await dc.terminateRequest({});
    await terminated;
    check('terminated event', true);
    check('an exited event with code 0', events.some(e => e.event === 'exited' && e.body.exitCode === 0));
    await dc.disconnectRequest({ restart: false });
    const code = await Promise.race([adapterExit, new Promise(r => setTimeout(() => r('still running'), 10000))]);
    check('the adapter ends after disconnect, exit code 0', code === 0, code);
    if (code !== 0)
        dc._adapterProcess.kill();

    console.log(`walk: ${passed} assertions passed, ${failed} failed`);
    return failed === 0;
}

main().then(ok => {
    record();
    process.exit(ok ? 0 : 1);
}, e => {
    record();
    console.log(`  FAIL  ${e && e.message ? e.message : e}`);
    console.log(`walk: ${passed} assertions passed, ${failed + 1} failed`);
    process.exit(1);
});
