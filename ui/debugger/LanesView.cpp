#include "debugger/LanesView.hpp"

#include "debugger/CompactTable.hpp"

#include <QFont>
#include <QHeaderView>

#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace kw {

namespace {
constexpr int kFixedColumns = 3; // lane, state, thread
}

QColor LanesView::stateColour(const QString& state)
{
    if (state == "active")
        return QColor("#c8e6c9");
    if (state == "diverged")
        return QColor("#ffe0b2");
    if (state == "barrier")
        return QColor("#bbdefb");
    if (state == "exited")
        return QColor("#e0e0e0");
    return {};
}

LanesView::LanesView(QWidget* parent)
    : QWidget(parent)
{
    field_ = new QLineEdit;
    field_->setPlaceholderText(tr("Add a column: %f4, threadIdx.x, in(i)…"));
    field_->setToolTip(tr("An expression evaluated for every lane (docs/debugger.md, \"Expressions\"); "
                          "right-click a column's header to remove it"));
    connect(field_, &QLineEdit::returnPressed, this, [this] {
        addExpression(field_->text());
        field_->clear();
    });
    table_ = new CompactTable(32, kFixedColumns);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    table_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
        const int column = table_->horizontalHeader()->logicalIndexAt(p);
        const int expression = column - kFixedColumns - leading_;
        if (expression < 0 || expression >= expressions_.size()) // the fixed columns and the source's variables stay
            return;
        QMenu menu(this);
        QAction* remove = menu.addAction(tr("Remove %1").arg(expressions_.value(expression)));
        if (menu.exec(table_->horizontalHeader()->mapToGlobal(p)) == remove)
            removeExpression(expression);
    });
    for (int l = 0; l < 32; ++l) {
        auto* item = new QTableWidgetItem(QString::number(l));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(l, 0, item);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(field_);
    layout->addWidget(table_);
    rebuildColumns();
}

void LanesView::addExpression(const QString& expression)
{
    const QString e = expression.trimmed();
    if (e.isEmpty() || expressions_.contains(e))
        return;
    expressions_ << e;
    rebuildColumns();
    emit expressionsChanged();
}

void LanesView::removeExpression(int index)
{
    if (index < 0 || index >= expressions_.size())
        return;
    expressions_.removeAt(index);
    rebuildColumns();
    emit expressionsChanged();
}

int LanesView::variableColumnAt(int v) const
{
    return kFixedColumns + v + (v < leading_ ? 0 : int(expressions_.size()));
}

int LanesView::variableColumn(const QString& name) const
{
    const auto at = variables_.indexOf(name);
    return at < 0 ? -1 : variableColumnAt(int(at));
}

int LanesView::expressionColumn(const QString& expression) const
{
    const auto at = expressions_.indexOf(expression);
    return at < 0 ? -1 : kFixedColumns + leading_ + int(at);
}

void LanesView::rebuildColumns()
{
    const int variables = int(variables_.size());
    table_->setColumnCount(kFixedColumns + variables + int(expressions_.size()));
    // The name first: where the header is elided, what is cut is the type.
    const auto header = [this](int v) { return QString("%1 (%2)").arg(variables_[v], variableTypes_[v]); };
    QStringList headers = {tr("Lane"), tr("State"), tr("Thread")};
    for (int v = 0; v < leading_; ++v)
        headers << header(v);
    headers << expressions_;
    for (int v = leading_; v < variables; ++v)
        headers << header(v);
    headers_ = headers;
    names_ = headers.mid(0, kFixedColumns) + variables_.mid(0, leading_) + expressions_ + variables_.mid(leading_);
    table_->setHorizontalHeaderLabels(headers);
    for (int v = 0; v < variables; ++v)
        table_->horizontalHeaderItem(variableColumnAt(v))
            ->setToolTip(v < leading_
                             ? tr("%1 %2: a variable of the source in scope here").arg(variableTypes_[v], variables_[v])
                             : tr("%1 %2: a parameter of the kernel").arg(variableTypes_[v], variables_[v]));
    for (int c = 0; c < expressions_.size(); ++c)
        table_->horizontalHeaderItem(kFixedColumns + leading_ + c)->setToolTip(expressions_[c]);
    // A column that moved keeps no cell of the one before it: empty until the next answer.
    for (int c = kFixedColumns; c < table_->columnCount(); ++c)
        for (int l = 0; l < 32; ++l)
            table_->setItem(l, c, new QTableWidgetItem);
    fitColumns();
}

// Once per answer (a column sized to its contents at every cell costs seconds). The
// headers are shown whole where the dock is wide enough; short of room a variable's type
// goes first, then width beyond the name, but a column stays as wide as its name (up to
// kNameChars characters, then elided at the right, the tooltip has it): a column whose
// header reads "par…" says nothing, and the table scrolls sideways anyway.
void LanesView::fitColumns()
{
    constexpr int kNameChars = 16;
    QHeaderView* head = table_->horizontalHeader();
    const QFontMetrics fm = head->fontMetrics();
    const int padding = 2 * head->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, head) + 6;
    int fixed = 0, whole = 0, floors = 0;
    std::vector<int> floorWidths, wholeWidths;
    for (int c = 0; c < table_->columnCount(); ++c) {
        if (c < kFixedColumns) {
            table_->resizeColumnToContents(c);
            fixed += table_->columnWidth(c);
            continue;
        }
        const int cells = std::max(table_->cellsWidth(c), fontMetrics().averageCharWidth() * 6) + 8;
        const int name = std::min(fm.horizontalAdvance(names_.value(c)), fm.averageCharWidth() * kNameChars) + padding;
        floorWidths.push_back(std::max(cells, name));
        wholeWidths.push_back(std::max(floorWidths.back(), fm.horizontalAdvance(headers_.value(c)) + padding));
        floors += floorWidths.back();
        whole += wholeWidths.back();
    }
    // Short of room, each column gives up its share of what its header wants beyond its floor.
    const int room = table_->viewport()->width() - fixed;
    for (std::size_t i = 0; i < floorWidths.size(); ++i) {
        int w = wholeWidths[i];
        if (whole > room && whole > floors)
            w = floorWidths[i]
                + int(double(std::max(0, room - floors)) * (wholeWidths[i] - floorWidths[i]) / (whole - floors));
        const int c = kFixedColumns + int(i);
        table_->setColumnWidth(c, w);
        // Whole where it fits, else the name alone (a variable's type goes first), else elided.
        const int room = std::max(0, w - padding);
        const QString whole = headers_.value(c), name = names_.value(c);
        if (QTableWidgetItem* h = table_->horizontalHeaderItem(c))
            h->setText(fm.horizontalAdvance(whole) <= room      ? whole
                           : fm.horizontalAdvance(name) <= room ? name
                                                                : fm.elidedText(name, Qt::ElideRight, room));
    }
}

void LanesView::show(const DebugReply& reply)
{
    fill(reply);
    fitColumns();
}

void LanesView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fitColumns();
}

// The variables in scope change with the pc: the columns follow the reply's, each cell the
// reply's value or why there is none, so no column keeps a value from another pc.
void LanesView::fillVariables(const DebugReply& reply)
{
    // The locals in the order they are declared, then the scalar parameters, then the pointers.
    std::vector<const DebugLocal*> order;
    for (const DebugLocal& v : reply.locals)
        order.push_back(&v);
    const auto rank = [](const DebugLocal* v) { return !v->parameter ? 0 : !v->type.contains('*') ? 1 : 2; };
    std::stable_sort(order.begin(), order.end(), [&](const DebugLocal* a, const DebugLocal* b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : rank(a) == 0 && a->line < b->line;
    });
    QStringList names, types;
    int leading = 0;
    for (const DebugLocal* v : order) {
        names << v->name;
        types << v->type;
        leading += !v->parameter;
    }
    if (names != variables_ || types != variableTypes_ || leading != leading_) {
        variables_ = names;
        variableTypes_ = types;
        leading_ = leading;
        rebuildColumns();
    }
    for (int c = 0; c < int(order.size()); ++c) {
        const DebugLocal& v = *order[std::size_t(c)];
        for (int l = 0; l < 32; ++l) {
            const bool thread = reply.warp && !reply.warp->laneState(l).isEmpty();
            auto* item = new QTableWidgetItem;
            if (v.texts[std::size_t(l)]) {
                item->setText(*v.texts[std::size_t(l)]);
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            } else if (thread) {
                item->setText(v.why.isEmpty() ? tr("not available here") : v.why);
                item->setForeground(QColor("#808080"));
                QFont italic = item->font();
                italic.setItalic(true);
                item->setFont(italic);
            }
            table_->setItem(l, variableColumnAt(c), item);
        }
    }
}

void LanesView::fill(const DebugReply& reply)
{
    fillVariables(reply);
    if (!reply.warp) { // every block has run: no lane to show, and no value that could be taken for one
        for (int l = 0; l < 32; ++l)
            for (int c = 1; c < table_->columnCount(); ++c)
                table_->setItem(l, c, new QTableWidgetItem(c == 1 ? tr("finished") : QString()));
        return;
    }
    const DebugWarp& w = *reply.warp;
    for (int l = 0; l < 32; ++l) {
        const QString state = w.laneState(l);
        auto* s = new QTableWidgetItem(state.isEmpty() ? tr("no thread") : state);
        if (const QColor c = stateColour(state); c.isValid()) {
            s->setBackground(c);
            s->setForeground(QColor("#202020"));
        }
        table_->setItem(l, 1, s);
        auto* t = new QTableWidgetItem(state.isEmpty() ? QString() : QString::number(w.warp * 32 + l));
        t->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(l, 2, t);
    }
    const int first = kFixedColumns + leading_;
    const std::tuple state{reply.stop.position, reply.focusBlock, reply.focusWarp};
    if (!reply.lanes) {
        // The launch moved or the focus changed: the expressions' values are of another state.
        if (state != valuesOf_)
            for (int c = first; c < first + int(expressions_.size()); ++c)
                for (int l = 0; l < 32; ++l)
                    table_->setItem(l, c, new QTableWidgetItem);
        return;
    }
    valuesOf_ = state;
    // The answer's own columns, matched by expression: the user may have changed the list since.
    for (int c = 0; c < expressions_.size(); ++c) {
        const auto at = reply.lanes->expressions.indexOf(expressions_[c]);
        for (int l = 0; l < 32; ++l) {
            auto* v = new QTableWidgetItem(at < 0 ? QString() : reply.lanes->texts[std::size_t(at)][std::size_t(l)]);
            v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(l, first + c, v);
        }
    }
}

} // namespace kw
