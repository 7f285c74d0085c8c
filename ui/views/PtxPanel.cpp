#include "views/PtxPanel.hpp"

#include "compile/PtxasReportParser.hpp"

#include "views/PtxHighlighter.hpp"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

namespace {
QTableWidgetItem* cell(const QString& text, bool number = false)
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}
QString bytes(std::size_t n) { return n == 0 ? QStringLiteral("0") : QStringLiteral("%1 B").arg(n); }
} // namespace

PtxPanel::PtxPanel(QWidget* parent)
    : QWidget(parent)
    , summary_(new QLabel(this))
    , table_(new QTableWidget(this))
    , text_(new QPlainTextEdit(this))
{
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_->setColumnCount(Columns);
    table_->setHorizontalHeaderLabels({tr("Kernel"), tr("Entry (lowered name)"), tr("Params"), tr("Registers"),
                                       tr("Stack"), tr("Spills"), tr("PTX registers (virtual)"), tr("Shared"),
                                       tr("Local"), tr("Const")});
    table_->horizontalHeaderItem(Registers)->setToolTip(tr("Registers per thread, as ptxas allocated them"));
    table_->horizontalHeaderItem(Spills)->setToolTip(tr("Bytes of registers spilled to local memory per thread "
                                                        "(stored / loaded)"));
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);

    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setPlaceholderText(tr("Compile to see the PTX."));
    highlighter_ = new PtxHighlighter(text_->document());

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(text_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);

    // Selecting an entry scrolls the PTX to its .entry line.
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row < 0 || row >= int(resources_.size()) || resources_[std::size_t(row)].entry.empty())
            return;
        const QString needle = QStringLiteral(".entry ") + QString::fromStdString(resources_[std::size_t(row)].entry);
        const QTextCursor c = text_->document()->find(needle);
        if (!c.isNull()) {
            text_->setTextCursor(c);
            text_->centerCursor();
        }
    });
    clear();
}

void PtxPanel::clear()
{
    resources_.clear();
    ptxas_.clear();
    table_->setRowCount(0);
    text_->clear();
    summary_->setText(tr("No compile result yet."));
}

void PtxPanel::setPtxasReport(std::vector<KernelResources> report)
{
    ptxas_ = std::move(report);
    fillTable();
}

void PtxPanel::fillTable()
{
    table_->setRowCount(int(resources_.size()));
    int row = 0;
    for (const PtxResources& e : resources_) {
        const std::string& lowered = e.entry;
        QString name;
        if (auto it = sourceNames_.find(lowered); it != sourceNames_.end())
            name = QString::fromStdString(it->second);
        if (name.isEmpty() && !lowered.empty()) {
            for (const KernelSignature& k : kernels_) // unmangled extern "C" or a plain match
                if (lowered == k.name || lowered.find(std::to_string(k.name.size()) + k.name) != std::string::npos)
                    name = QString::fromStdString(k.name);
        }
        const bool module = lowered.empty();
        table_->setItem(row, Kernel, cell(module ? tr("(module scope)") : name));
        table_->setItem(row, Entry, cell(QString::fromStdString(lowered)));
        table_->setItem(row, Params, cell(module ? QString() : QString::number(e.params), true));
        const KernelResources* used = nullptr;
        for (const KernelResources& k : ptxas_)
            if (!module && k.entry == lowered)
                used = &k;
        if (used) {
            auto* regs = cell(QString::number(used->registers), true);
            regs->setToolTip(tr("Allocated by ptxas for %1").arg(QString::fromStdString(used->arch)));
            table_->setItem(row, Registers, regs);
            table_->setItem(row, Stack, cell(bytes(used->stackBytes), true));
            auto* spills = cell(tr("%1 / %2").arg(bytes(used->spillStoreBytes), bytes(used->spillLoadBytes)), true);
            if (used->spillStoreBytes + used->spillLoadBytes > 0)
                spills->setForeground(QColor(198, 40, 40));
            table_->setItem(row, Spills, spills);
        } else {
            for (int c : {Registers, Stack, Spills}) {
                auto* none = cell(module ? QString() : QStringLiteral("\u2013"), true);
                none->setToolTip(tr("ptxas did not run: the compile was for a virtual architecture (PTX only)."));
                table_->setItem(row, c, none);
            }
        }
        QStringList regs;
        for (const auto& [type, count] : e.registers)
            regs << QStringLiteral("%1 %2").arg(count).arg(QString::fromStdString(type));
        auto* regItem = cell(module ? QString() : QString::number(e.registers32), true);
        regItem->setToolTip(tr("Declared in the PTX: %1. ptxas assigns the real registers; "
                               "these virtual ones are an upper bound.")
                                .arg(regs.join(QStringLiteral(", "))));
        table_->setItem(row, VirtualRegisters, regItem);
        table_->setItem(row, Shared,
                        cell(bytes(e.sharedBytes) + (e.dynamicShared ? tr(" + dynamic") : QString()), true));
        table_->setItem(row, Local, cell(bytes(e.localBytes), true));
        table_->setItem(row, Const, cell(bytes(e.constBytes), true));
        ++row;
    }
    table_->resizeColumnsToContents();
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth() + 2;
    for (int r = 0; r < table_->rowCount(); ++r)
        height += table_->rowHeight(r);
    table_->setMaximumHeight(std::max(height, 60));
}

void PtxPanel::showCompile(const CompileResult& r)
{
    resources_ = PtxResources::parse(r.ptx);
    sourceNames_.clear();
    for (const auto& [expr, lowered] : r.loweredNames)
        sourceNames_[lowered] = expr;
    kernels_ = r.kernels;
    if (auto report = parsePtxasReport(r.log); !report.empty())
        ptxas_ = std::move(report);
    fillTable();

    text_->setPlainText(QString::fromStdString(r.ptx));
    const int lines = text_->document()->blockCount();
    if (r.ptx.empty()) {
        summary_->setText(r.ok ? tr("The compile produced no PTX.") : tr("The compile failed: no PTX."));
    } else {
        summary_->setText(tr("PTX for <b>%1</b>: %2 lines, %3 entries; compiled in %4 ms%5.")
                              .arg(QString::fromStdString(r.arch).toHtmlEscaped())
                              .arg(lines)
                              .arg(std::count_if(resources_.begin(), resources_.end(),
                                                 [](const PtxResources& e) { return !e.entry.empty(); }))
                              .arg(r.compileMs, 0, 'f', 1)
                              .arg(howCompiled(r).empty()
                                       ? QString()
                                       : QStringLiteral(" (%1)").arg(QString::fromStdString(howCompiled(r)))));
    }
}

} // namespace kw
