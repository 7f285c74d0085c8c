// The Lanes view's page: the adapter's `lanes` reply (core/debug/DapLanes.hpp) as an
// HTML table, one row a lane, the lanes that do not run the focused line greyed. No
// VS Code API here, so that it can be checked on its own (tests/dap/vscode_lanes_view.js).
'use strict';

function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// `lanes`: the reply's body; `error`: a message shown instead (no stop, a refused expression).
function lanesHtml(lanes, error) {
    const style = `<style>
body { font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 13px); }
table { border-collapse: collapse; }
th, td { padding: 1px 8px; text-align: right; border-bottom: 1px solid var(--vscode-panel-border, #8884); }
th { position: sticky; top: 0; background: var(--vscode-editor-background, #fff); }
td.state { text-align: left; }
tr.active td.state { color: var(--vscode-debugIcon-startForeground, #388a34); }
tr.inactive td { opacity: 0.5; }
</style>`;
    if (error || !lanes)
        return `<!DOCTYPE html><html><head>${style}</head><body><p>${escapeHtml(error || 'No warp is stopped.')}</p></body></html>`;
    const head = ['Lane', 'State', 'Thread', ...lanes.columns].map(c => `<th>${escapeHtml(c)}</th>`).join('');
    const rows = lanes.lanes.map(l => {
        const cells = [l.lane, l.state, l.thread ?? '', ...l.values.map(v => v.text)];
        const kind = l.state === 'active' ? 'active' : 'inactive';
        return `<tr class="${kind}">` + cells.map((c, i) => `<td${i === 1 ? ' class="state"' : ''}>${escapeHtml(c)}</td>`).join('') + '</tr>';
    }).join('\n');
    return `<!DOCTYPE html><html><head>${style}</head><body>
<p>Block ${escapeHtml(lanes.block)}, warp ${escapeHtml(lanes.warp)}</p>
<table><thead><tr>${head}</tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

module.exports = { lanesHtml, escapeHtml };
