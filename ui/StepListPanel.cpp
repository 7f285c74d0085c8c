#include "StepListPanel.hpp"

#include "CountedNoun.hpp"
#include "DocumentPart.hpp"
#include "MenuButton.hpp"
#include "StepForm.hpp"
#include "ThemeColours.hpp"

#include "doc/Expression.hpp"
#include "doc/PlacedChecks.hpp"
#include "doc/VariableScope.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

constexpr int PathRole = Qt::UserRole;

// "4x4" for a launch's dimensions, the trailing ones left out.
QString dims(const std::vector<std::string>& values)
{
    int last = int(values.size()) - 1;
    while (last > 0 && values[last] == "1")
        --last;
    QStringList parts;
    for (int i = 0; i <= last; ++i)
        parts << q(values[i]);
    return parts.join(QStringLiteral("×"));
}

QString dims(const Dim3& d) { return dims({std::to_string(d.x), std::to_string(d.y), std::to_string(d.z)}); }

QString kindWord(StepSpec::Kind k)
{
    switch (k) {
    case StepSpec::Kind::Launch: return StepListPanel::tr("launch");
    case StepSpec::Kind::Copy: return StepListPanel::tr("copy");
    case StepSpec::Kind::Fill: return StepListPanel::tr("fill");
    case StepSpec::Kind::Swap: return StepListPanel::tr("swap");
    case StepSpec::Kind::Repeat: return StepListPanel::tr("repeat");
    case StepSpec::Kind::RepeatUntil: return StepListPanel::tr("repeat until");
    }
    return {};
}

// "a[2…]" for a buffer from an offset.
QString from(const std::string& buffer, const std::string& offset)
{
    return offset.empty() ? q(buffer) : QStringLiteral("%1[%2…]").arg(q(buffer), q(offset));
}
} // namespace

StepListPanel::StepListPanel(QWidget* parent)
    : QWidget(parent)
{
    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(ColumnCount);
    tree_->setHeaderLabels({tr("Step"), tr("What it does"), tr("Runs"), tr("ms"), tr("Share")});
    tree_->setRootIsDecorated(true);
    tree_->setIndentation(14); // the path says the depth too: room for what the step does
    tree_->setUniformRowHeights(true);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setAllColumnsShowFocus(true);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(ColStep, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(ColWhat, QHeaderView::Stretch);
    for (int c : {ColRuns, ColTime, ColShare})
        tree_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    tree_->headerItem()->setToolTip(ColRuns, tr("Times the step ran; a repeat: its passes"));
    tree_->headerItem()->setToolTip(ColTime,
                                    tr("Kernel milliseconds in the step, all its runs together (a repeat: its "
                                       "inner steps')"));
    tree_->headerItem()->setToolTip(ColShare, tr("Share of the run's kernel time"));

    add_ = new MenuButton(tr("Add"), this);
    add_->setToolTip(tr("A new step after the selected one"));
    auto* menu = new QMenu(add_);
    const std::pair<StepSpec::Kind, QString> kinds[]
        = {{StepSpec::Kind::Launch, tr("Launch")},
           {StepSpec::Kind::Copy, tr("Copy")},
           {StepSpec::Kind::Fill, tr("Fill")},
           {StepSpec::Kind::Swap, tr("Swap")},
           {StepSpec::Kind::Repeat, tr("Repeat around the selected step")},
           {StepSpec::Kind::RepeatUntil, tr("Repeat until, around the selected step")}};
    for (const auto& [kind, label] : kinds) {
        QAction* a = menu->addAction(label);
        a->setData(int(kind));
        connect(a, &QAction::triggered, this, [this, kind = kind] { add(kind); });
    }
    add_->setMenu(menu);
    auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        return b;
    };
    // Short, so that the row fits the dock beside the editor at 1366x768; the tooltips say more.
    remove_ = button(tr("Remove"), tr("Remove the selected step (a repeat with its steps)"));
    up_ = button(tr("Up"), tr("Move the selected step up"));
    down_ = button(tr("Down"), tr("Move the selected step down"));
    into_ = button(tr("Into"), tr("Move the selected step into the repeat above it, as its last step"));
    out_ = button(tr("Out"), tr("Move the selected step out of its repeat, just after it"));
    duplicate_ = button(tr("Duplicate"), tr("A copy of the selected step after it"));
    up_->setArrowType(Qt::UpArrow);
    down_->setArrowType(Qt::DownArrow);
    into_->setArrowType(Qt::RightArrow);
    out_->setArrowType(Qt::LeftArrow);
    // Arrows alone, like Up and Down (their names in the tooltips): with their text the row
    // asked for a left column that left the editor and the launch fields too little room.
    for (QToolButton* b : {up_, down_, into_, out_})
        b->setAccessibleName(b->text());
    connect(remove_, &QToolButton::clicked, this, [this] { apply(&StepTree::remove); });
    connect(up_, &QToolButton::clicked, this, [this] { apply(&StepTree::moveUp); });
    connect(down_, &QToolButton::clicked, this, [this] { apply(&StepTree::moveDown); });
    connect(into_, &QToolButton::clicked, this, [this] { apply(&StepTree::moveInto); });
    connect(out_, &QToolButton::clicked, this, [this] { apply(&StepTree::moveOut); });
    connect(duplicate_, &QToolButton::clicked, this, [this] { apply(&StepTree::duplicate); });

    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(2);
    buttons->addWidget(add_);
    for (QToolButton* b : {duplicate_, remove_, up_, down_, into_, out_})
        buttons->addWidget(b);
    buttons->addStretch();

    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette p = problem_->palette();
    p.setColor(QPalette::WindowText, ThemeColours::error(palette()));
    problem_->setPalette(p);
    problem_->hide();

    resultLabel_ = new QLabel(this);
    resultLabel_->setWordWrap(true);
    endOfRun_ = new QPushButton(tr("End of the run"), this);
    endOfRun_->setToolTip(tr("Show the buffers as the run left them"));
    auto* resultRow = new QHBoxLayout;
    resultRow->addWidget(resultLabel_, 1);
    resultRow->addWidget(endOfRun_);
    connect(endOfRun_, &QPushButton::clicked, this, [this] {
        resultStep_.reset();
        chooseResultStep();
    });

    form_ = new StepForm(this);
    connect(form_, &StepForm::edited, this, &StepListPanel::formEdited);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(3);
    layout->addWidget(tree_, 1);
    layout->addLayout(buttons);
    layout->addWidget(problem_);
    layout->addLayout(resultRow);
    layout->addWidget(form_);

    connect(tree_, &QTreeWidget::currentItemChanged, this, [this] {
        if (rebuilding_)
            return;
        updateButtons();
        showSelected();
        emit selectionChanged();
        if (hasResult_) { // choosing a step after a run shows its buffers
            resultStep_ = selectedPath();
            chooseResultStep();
        }
    });
    // A click on the step already selected chooses it too (after a run that opened elsewhere).
    connect(tree_, &QTreeWidget::itemClicked, this, [this] {
        if (hasResult_ && !rebuilding_ && selectedPath() != resultStep_) {
            resultStep_ = selectedPath();
            chooseResultStep();
        }
    });
    clearResult();
}

void StepListPanel::setDocument(const Document& doc)
{
    Document before = doc, after = doc;
    before.steps = steps_;
    // A step's checks, edited in the Checks tab, leave the figures of the steps' last run.
    PlacedChecks::place(before, {});
    PlacedChecks::place(after, {});
    if (!samePart(DocumentPart::Steps, before, after))
        clearResult(); // the last run's figures were of other steps
    steps_ = doc.steps;
    buffers_.clear();
    for (const BufferSpec& b : doc.buffers)
        if (!b.global)
            buffers_ << q(b.name);
    variables_ = doc.variables;
    std::optional<StepPath> keep = selectedPath();
    if (!keep || !StepTree::find(steps_, *keep))
        keep = steps_.empty() ? std::nullopt : std::optional<StepPath>(StepPath{0});
    rebuild(keep);
}

std::optional<StepPath> StepListPanel::selectedPath() const
{
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item)
        return std::nullopt;
    return StepTree::parse(item->data(ColStep, PathRole).toString().toStdString());
}

const StepSpec* StepListPanel::selectedStep() const
{
    const auto path = selectedPath();
    return path ? StepTree::find(steps_, *path) : nullptr;
}

QTreeWidgetItem* StepListPanel::itemAt(const StepPath& path) const
{
    QTreeWidgetItem* item = nullptr;
    for (int i : path) {
        const int n = item ? item->childCount() : tree_->topLevelItemCount();
        if (i < 0 || i >= n)
            return nullptr;
        item = item ? item->child(i) : tree_->topLevelItem(i);
    }
    return item;
}

void StepListPanel::selectPath(const StepPath& path)
{
    QTreeWidgetItem* item = itemAt(path);
    if (!item)
        return;
    tree_->setCurrentItem(item);
    if (hasResult_ && resultStep_ != path) { // it was selected already: chosen all the same
        resultStep_ = path;
        chooseResultStep();
    }
}

void StepListPanel::rebuild(const std::optional<StepPath>& select)
{
    rebuilding_ = true;
    tree_->clear();
    StepPath at;
    addItems(nullptr, steps_, at);
    tree_->expandAll();
    if (select)
        if (QTreeWidgetItem* item = itemAt(*select))
            tree_->setCurrentItem(item);
    rebuilding_ = false;
    markRows();
    updateButtons();
    showSelected();
    emit selectionChanged();
}

void StepListPanel::addItems(QTreeWidgetItem* parent, const std::vector<StepSpec>& list, StepPath& at)
{
    for (int i = 0; i < int(list.size()); ++i) {
        at.push_back(i);
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
        fillRow(item, list[i], at);
        addItems(item, list[i].steps, at);
        at.pop_back();
    }
}

void StepListPanel::fillRow(QTreeWidgetItem* item, const StepSpec& s, const StepPath& path) const
{
    const QString where = q(StepTree::text(path));
    item->setData(ColStep, PathRole, where);
    item->setText(ColStep, where);
    // The kind leads what the step does, so that the path column stays narrow.
    const QString what = QStringLiteral("%1 %2").arg(kindWord(s.kind), whatItDoes(s, path));
    item->setText(ColWhat, s.name.empty() ? what : QStringLiteral("%1: %2").arg(q(s.name), what));
    item->setToolTip(ColWhat, item->text(ColWhat));
    for (int c : {ColRuns, ColTime, ColShare})
        item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
}

QString StepListPanel::whatItDoes(const StepSpec& s, const StepPath& path) const
{
    using K = StepSpec::Kind;
    switch (s.kind) {
    case K::Launch: {
        // As the last run evaluated them, else as the expressions give them for pass 0.
        QString grid = dims(s.launch.grid), block = dims(s.launch.block), when;
        // In a loop with an index the launch may change from pass to pass: say which one.
        const bool varies = !StepTree::indicesAround(steps_, path).empty();
        if (auto r = results_.find(StepTree::text(path)); r != results_.end() && r->second.runs > 0) {
            grid = dims(r->second.grid);
            block = dims(r->second.block);
            if (varies)
                when = tr(" (last run)");
        } else {
            try {
                VariableScope scope = VariableScope::evaluate(variables_);
                for (const std::string& index : StepTree::indicesAround(steps_, path))
                    scope.set(index, 0);
                auto value = [&](const std::vector<std::string>& e) {
                    std::vector<std::string> v;
                    for (const std::string& x : e)
                        v.push_back(std::to_string(scope.evaluateInteger(x, "launch")));
                    return dims(v);
                };
                grid = value(s.launch.grid);
                block = value(s.launch.block);
                if (varies)
                    when = tr(" (first pass)");
            } catch (const std::exception&) {
                // not evaluated here (a buffer read, a typing in progress): the expressions
            }
        }
        return QStringLiteral("%1 <<<%2, %3>>>%4").arg(q(s.kernel), grid, block, when);
    }
    case K::Copy: {
        QString t = QStringLiteral("%1 → %2").arg(from(s.from, s.fromOffset), from(s.to, s.toOffset));
        return s.count.empty() ? t : tr("%1, %2 elements").arg(t, q(s.count));
    }
    case K::Fill: {
        QString t = QStringLiteral("%1 = %2").arg(from(s.to, s.toOffset), q(s.value));
        return s.count.empty() ? t : tr("%1, %2 elements").arg(t, q(s.count));
    }
    case K::Swap: return QStringLiteral("%1 ↔ %2").arg(q(s.from), q(s.to));
    case K::Repeat:
        return s.index.empty() ? tr("%1 passes").arg(q(s.times))
                               : tr("%1 passes, %2 = 0, 1, …").arg(q(s.times), q(s.index));
    case K::RepeatUntil: return tr("%1, at most %2 passes").arg(q(s.until), q(s.limit));
    }
    return {};
}

// Problems, results and the running step, over the rows as built.
void StepListPanel::markRows()
{
    // The figures of a run take room only once there is one.
    for (int c : {ColRuns, ColTime, ColShare})
        tree_->setColumnHidden(c, !hasResult_);
    const QPalette pal = palette();
    for (const StepPath& path : StepTree::all(steps_)) {
        QTreeWidgetItem* item = itemAt(path);
        if (!item)
            continue;
        const std::string key = StepTree::text(path);
        QStringList notes;
        QColor background;
        if (auto it = problems_.atStep.find(path); it != problems_.atStep.end())
            notes << q(it->second);
        for (int c : {ColRuns, ColTime, ColShare})
            item->setText(c, QString());
        if (auto r = results_.find(key); hasResult_ && r != results_.end()) {
            const StepResult& sr = r->second;
            item->setText(ColRuns, QString::number(sr.runs));
            if (sr.kind == "launch" || StepTree::isRepeat(*StepTree::find(steps_, path))) {
                item->setText(ColTime, QString::number(sr.totalMs, 'f', sr.totalMs < 10 ? 3 : 1));
                if (totalMs_ > 0)
                    item->setText(ColShare, QStringLiteral("%1 %").arg(100.0 * sr.totalMs / totalMs_, 0, 'f', 1));
            }
            int failed = 0;
            for (const CheckResult& c : sr.checks)
                failed += c.passed ? 0 : 1;
            if (failed > 0) {
                notes << countedNoun(failed, tr("1 check failed"), tr("%1 checks failed"));
                background = ThemeColours::tint(pal, ThemeColours::error(pal));
            }
            if (sr.runs == 0)
                notes << tr("did not run");
        }
        if (hasResult_ && key == stoppedStep_) {
            notes << q(stopped_);
            background = ThemeColours::tint(pal, ThemeColours::warning(pal));
        }
        if (hasResult_ && key == faultStep_) {
            notes << tr("faulted");
            background = ThemeColours::tint(pal, ThemeColours::error(pal));
        }
        QFont font = item->font(ColStep);
        font.setBold(!current_.isEmpty() && q(key) == current_);
        if (font.bold())
            background = ThemeColours::tint(pal, pal.color(QPalette::Highlight), 0.35);
        const bool problem = problems_.atStep.count(path) > 0;
        for (int c = 0; c < ColumnCount; ++c) {
            item->setFont(c, font);
            item->setBackground(c, background.isValid() ? QBrush(background) : QBrush());
            item->setForeground(c, problem ? QBrush(ThemeColours::error(pal)) : QBrush());
        }
        item->setToolTip(ColStep, notes.join('\n'));
        item->setText(ColStep, problem ? QStringLiteral("%1 ⚠").arg(q(key)) : q(key));
    }
}

void StepListPanel::updateButtons()
{
    const auto path = selectedPath();
    const bool any = path.has_value();
    remove_->setEnabled(any && StepTree::canRemove(steps_, *path));
    up_->setEnabled(any && StepTree::canMoveUp(steps_, *path));
    down_->setEnabled(any && StepTree::canMoveDown(steps_, *path));
    into_->setEnabled(any && StepTree::canMoveInto(steps_, *path));
    out_->setEnabled(any && StepTree::canMoveOut(steps_, *path));
    duplicate_->setEnabled(any);
    for (QAction* a : add_->menu()->actions()) {
        const auto kind = StepSpec::Kind(a->data().toInt());
        const bool wraps = kind == StepSpec::Kind::Repeat || kind == StepSpec::Kind::RepeatUntil;
        a->setEnabled(!wraps || any);
    }
}

void StepListPanel::showSelected()
{
    const StepSpec* s = selectedStep();
    form_->setEnabled(s != nullptr);
    form_->setStep(s ? *s : StepSpec{}, buffers_);
    QString text;
    if (const auto path = selectedPath()) {
        if (auto it = problems_.atStep.find(*path); it != problems_.atStep.end())
            text = tr("Step %1: %2").arg(q(StepTree::text(*path)), q(it->second));
    }
    if (text.isEmpty() && !problems_.document.empty())
        text = q(problems_.document);
    else if (!problems_.atStep.empty() && text.isEmpty())
        text = countedNoun(int(problems_.atStep.size()), tr("1 step has problems (marked ⚠; hover for the message)"),
                           tr("%1 steps have problems (marked ⚠; hover for the message)"));
    problem_->setText(text);
    problem_->setVisible(!text.isEmpty());
}

void StepListPanel::setProblems(const StepProblems& problems)
{
    problems_ = problems;
    markRows();
    showSelected();
}

QString StepListPanel::problemText() const { return problem_->isVisible() ? problem_->text() : QString(); }

void StepListPanel::apply(StepPath (*op)(std::vector<StepSpec>&, const StepPath&))
{
    const auto path = selectedPath();
    if (!path)
        return;
    const StepPath next = op(steps_, *path);
    clearResult();
    rebuild(next);
    emit changed(false);
}

StepSpec StepListPanel::newStep(StepSpec::Kind kind) const
{
    using K = StepSpec::Kind;
    if (kind == K::Launch && launchFactory_)
        return launchFactory_();
    StepSpec s;
    s.kind = kind;
    const std::string first = buffers_.isEmpty() ? std::string() : buffers_.first().toStdString();
    const std::string second = buffers_.size() > 1 ? buffers_.at(1).toStdString() : first;
    switch (kind) {
    case K::Launch: s.launch.block = {"256", "1", "1"}; break;
    case K::Copy:
    case K::Swap:
        s.from = first;
        s.to = second;
        break;
    case K::Fill:
        s.to = first;
        s.value = "0";
        break;
    case K::Repeat: s.times = "2"; break;
    case K::RepeatUntil:
        s.until = "1";
        s.limit = "100";
        break;
    }
    return s;
}

void StepListPanel::add(StepSpec::Kind kind)
{
    const auto path = selectedPath();
    StepPath next;
    if (kind == StepSpec::Kind::Repeat || kind == StepSpec::Kind::RepeatUntil) {
        if (!path)
            return; // a repeat holds a step: the selected one
        next = StepTree::wrap(steps_, *path, newStep(kind));
    } else {
        next = StepTree::insertAfter(steps_, path.value_or(StepPath{}), newStep(kind));
    }
    clearResult();
    rebuild(next);
    emit changed(false);
}

void StepListPanel::formEdited()
{
    const auto path = selectedPath();
    StepSpec* s = path ? StepTree::find(steps_, *path) : nullptr;
    if (!s)
        return;
    *s = form_->applyTo(*s);
    // The row follows without a rebuild, which would take the focus from the form.
    for (const StepPath& p : StepTree::all(steps_))
        if (QTreeWidgetItem* item = itemAt(p))
            fillRow(item, *StepTree::find(steps_, p), p); // a repeat's index shows in its inner launches
    markRows();
    emit changed(true);
}

void StepListPanel::setCurrentStep(const QString& path)
{
    current_ = path;
    markRows();
    if (auto p = StepTree::parse(path.toStdString()))
        if (QTreeWidgetItem* item = itemAt(*p))
            tree_->scrollToItem(item);
}

void StepListPanel::showResult(const RunResult& r)
{
    hasResult_ = true;
    current_.clear();
    results_.clear();
    totalMs_ = 0;
    for (const StepResult& s : r.steps) {
        if (s.path.find('.') == std::string::npos)
            totalMs_ += s.totalMs;
        results_[s.path] = s;
    }
    faultStep_ = r.faultStep;
    stopped_ = r.stopped;
    // On two lines: in the left column at 1366x768 every pixel of this column is one fewer
    // for what the step does.
    tree_->headerItem()->setText(ColTime, r.device.id == "sim" ? tr("sim ms\n(CPU)") : tr("ms"));
    // The runner names the step it stopped at in its message ("step 2 (...): ...").
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("\\bstep (\\d+(?:\\.\\d+)*)")).match(q(r.stopped));
    stoppedStep_ = m.hasMatch() ? m.captured(1).toStdString() : std::string();
    for (const StepPath& p : StepTree::all(steps_))
        if (QTreeWidgetItem* item = itemAt(p))
            fillRow(item, *StepTree::find(steps_, p), p); // the launches' dimensions as they ran
    markRows();
    // What went wrong is where the list opens: the fault, else the first failed check,
    // else a loop stopped at its limit. Its buffers are then the ones shown.
    std::string mark = faultStep_;
    for (const StepResult& s : r.steps)
        for (const CheckResult& c : s.checks)
            if (mark.empty() && !c.passed)
                mark = s.path;
    if (mark.empty())
        mark = stoppedStep_;
    resultStep_.reset();
    if (auto p = StepTree::parse(mark); p && itemAt(*p)) {
        resultStep_ = p;
        rebuilding_ = true; // selected as the result's step, not chosen as a click would
        tree_->setCurrentItem(itemAt(*p));
        rebuilding_ = false;
        updateButtons();
        showSelected();
        emit selectionChanged();
    }
    chooseResultStep();
}

void StepListPanel::clearResult()
{
    hasResult_ = false;
    results_.clear();
    faultStep_.clear();
    stoppedStep_.clear();
    stopped_.clear();
    current_.clear();
    resultStep_.reset();
    tree_->headerItem()->setText(ColTime, tr("ms"));
    resultLabel_->setText(tr("Run the document to see each step's time and the buffers after it."));
    endOfRun_->setEnabled(false);
    markRows();
}

void StepListPanel::chooseResultStep()
{
    if (!hasResult_)
        return;
    QString text;
    if (resultStep_) {
        const std::string key = StepTree::text(*resultStep_);
        const StepSpec* s = StepTree::find(steps_, *resultStep_);
        const QString name = s && !s->name.empty() ? QStringLiteral(" (%1)").arg(q(s->name)) : QString();
        auto r = results_.find(key);
        if (r == results_.end() || r->second.runs == 0)
            text = tr("Step %1%2 did not run: the results show the end of the run.").arg(q(key), name);
        else if (r->second.buffers.empty())
            text = tr("The runner sent no buffers after step %1%2: the results show the end of the run.")
                       .arg(q(key), name);
        else
            text = tr("The results show the buffers after step %1%2, its last run.").arg(q(key), name);
    } else {
        text = tr("The results show the buffers at the end of the run. Choose a step to see them after it.");
    }
    resultLabel_->setText(text);
    endOfRun_->setEnabled(resultStep_.has_value());
    emit resultStepChosen(resultStep_);
}

} // namespace kw
