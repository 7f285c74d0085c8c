// The debug adapter of the `kernel-workbench` debug type is `kwb-run debug --dap`
// (docs/debugger.md, "VS Code and other DAP clients"). A manifest alone names its
// adapter by a path inside the extension's folder; this factory runs kwb-run from
// PATH or from the kernelWorkbench.kwbRun setting instead.
const vscode = require('vscode');

function activate(context) {
    context.subscriptions.push(vscode.debug.registerDebugAdapterDescriptorFactory('kernel-workbench', {
        createDebugAdapterDescriptor() {
            const kwbRun = vscode.workspace.getConfiguration('kernelWorkbench').get('kwbRun') || 'kwb-run';
            return new vscode.DebugAdapterExecutable(kwbRun, ['debug', '--dap']);
        },
    }));
}

function deactivate() {}

module.exports = { activate, deactivate };
