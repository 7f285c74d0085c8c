// The debug adapter of the `kernel-workbench` debug type is `kwb-run debug --dap`
// (docs/debugger.md, "VS Code and other DAP clients"). A manifest alone names its
// adapter by a path inside the extension's folder; this factory runs kwb-run from
// PATH or from the kernelWorkbench.kwbRun setting instead.
//
// The protocol has no view of a warp's 32 lanes: the Lanes view (command "Kernel
// Workbench: Show the lanes") asks the adapter's own `lanes` request at every stop and
// draws the table (lanes-view.js).
'use strict';
const vscode = require('vscode');
const { lanesHtml } = require('./lanes-view');

class LanesView {
    constructor() {
        this.panel = null;
        this.expressions = []; // none: the source's variables in scope
        this.last = null;      // the last stop: {session, threadId}
    }

    show() {
        if (!this.panel) {
            this.panel = vscode.window.createWebviewPanel('kernelWorkbench.lanes', 'Lanes',
                { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {});
            this.panel.onDidDispose(() => { this.panel = null; });
        }
        this.panel.reveal(undefined, true);
        return this.refresh();
    }

    stopped(session, threadId) {
        this.last = { session, threadId };
        return this.refresh();
    }

    ended(session) {
        if (this.last && this.last.session === session) {
            this.last = null;
            if (this.panel)
                this.panel.webview.html = lanesHtml(null, 'The debug session ended.');
        }
    }

    async setColumns() {
        const text = await vscode.window.showInputBox({
            prompt: 'Columns of the Lanes view, separated by ";" (empty: the variables in scope)',
            value: this.expressions.join('; '),
            placeHolder: 'partial(tid); partial(tid + stride); %f4',
        });
        if (text === undefined)
            return;
        this.expressions = text.split(';').map(s => s.trim()).filter(s => s.length > 0);
        return this.show();
    }

    async refresh() {
        if (!this.panel)
            return;
        if (!this.last) {
            this.panel.webview.html = lanesHtml(null);
            return;
        }
        const { session, threadId } = this.last;
        try {
            const body = await session.customRequest('lanes', { threadId, expressions: this.expressions });
            this.panel.webview.html = lanesHtml(body);
        } catch (e) {
            this.panel.webview.html = lanesHtml(null, e && e.message ? e.message : String(e));
        }
    }
}

function activate(context) {
    const lanes = new LanesView();
    context.subscriptions.push(
        vscode.debug.registerDebugAdapterDescriptorFactory('kernel-workbench', {
            createDebugAdapterDescriptor() {
                const kwbRun = vscode.workspace.getConfiguration('kernelWorkbench').get('kwbRun') || 'kwb-run';
                return new vscode.DebugAdapterExecutable(kwbRun, ['debug', '--dap']);
            },
        }),
        // Every message the adapter sends passes here: a stop refreshes the view.
        vscode.debug.registerDebugAdapterTrackerFactory('kernel-workbench', {
            createDebugAdapterTracker(session) {
                return {
                    onDidSendMessage(m) {
                        if (m && m.type === 'event' && m.event === 'stopped')
                            lanes.stopped(session, m.body.threadId);
                    },
                    onExit() { lanes.ended(session); },
                };
            },
        }),
        vscode.commands.registerCommand('kernelWorkbench.showLanes', () => lanes.show()),
        vscode.commands.registerCommand('kernelWorkbench.laneColumns', () => lanes.setColumns()));
}

function deactivate() {}

module.exports = { activate, deactivate, LanesView };
