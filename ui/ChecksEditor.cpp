#include "ChecksEditor.hpp"

#include "ThemeColours.hpp"

#include "doc/DocumentValidator.hpp"
#include "doc/Expression.hpp"
#include "doc/StepPaths.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

constexpr const char* kAggregates[] = {"sum", "min", "max", "mean", "count", "any", "all"};

bool passedByArgument(const Document& doc, const std::string& buffer)
{
    const auto passes = [&](const std::vector<ArgSpec>& args) {
        return std::any_of(args.begin(), args.end(), [&](const ArgSpec& a) { return a.buffer == buffer; });
    };
    if (passes(doc.args))
        return true;
    return std::any_of(doc.steps.begin(), doc.steps.end(), [&](const StepSpec& s) { return passes(s.args); });
}

// The buffer a check's results are read from: an output of the launch where there is one.
std::string firstOutput(const Document& doc)
{
    for (const BufferSpec& b : doc.buffers)
        if (b.direction != Direction::In && !b.global && passedByArgument(doc, b.name))
            return b.name;
    return doc.buffers.empty() ? std::string() : doc.buffers.front().name;
}

// A tolerance as typed: a number of 0 or more, or nothing.
std::optional<double> tolerance(const QString& text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok && v >= 0 ? std::optional<double>(v) : std::nullopt;
}

bool sameChecks(const std::vector<PlacedCheck>& a, const std::vector<PlacedCheck>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const PlacedCheck& x, const PlacedCheck& y) {
        const CheckSpec &c = x.check, &d = y.check;
        return x.step == y.step && c.buffer == d.buffer && c.expect == d.expect && c.aggregate == d.aggregate
            && c.of == d.of && c.absTol == d.absTol && c.relTol == d.relTol;
    });
}
} // namespace

ChecksEditor::ChecksEditor(QWidget* parent)
    : QWidget(parent)
    , list_(new QListWidget(this))
    , add_(new QPushButton(tr("Add check"), this))
    , remove_(new QPushButton(tr("Remove"), this))
    , step_(new QComboBox(this))
    , stepLabel_(new QLabel(tr("e&valuated"), this))
    , kind_(new QComboBox(this))
    , buffer_(new QComboBox(this))
    , aggregate_(new QComboBox(this))
    , reference_(new QComboBox(this))
    , of_(new QLineEdit(this))
    , expect_(new QLineEdit(this))
    , relTol_(new QLineEdit(this))
    , absTol_(new QLineEdit(this))
    , problem_(new QLabel(this))
    , hint_(new QLabel(this))
    , fields_(new QFormLayout)
{
    list_->setObjectName("checksList");
    add_->setObjectName("addCheck");
    add_->setToolTip(tr("A check of the first output buffer: type what each element should be"));
    step_->setObjectName("checkStep");
    step_->setToolTip(tr("The step after which the check is evaluated, with the names in scope there"));
    kind_->setObjectName("checkKind");
    kind_->addItem(tr("each element ≈ expression"), int(Kind::Element));
    kind_->addItem(tr("each element ≈ reference buffer"), int(Kind::Reference));
    kind_->addItem(tr("aggregate ≈ expression"), int(Kind::Aggregate));
    buffer_->setObjectName("checkBuffer");
    aggregate_->setObjectName("checkAggregate");
    for (const char* a : kAggregates)
        aggregate_->addItem(a, QString(a));
    reference_->setObjectName("checkReference");
    of_->setObjectName("checkOf");
    of_->setPlaceholderText(tr("the buffer's element"));
    expect_->setObjectName("checkExpect");
    expect_->setPlaceholderText(tr("e.g. a + b"));
    relTol_->setObjectName("checkRelTol");
    absTol_->setObjectName("checkAbsTol");
    problem_->setObjectName("checkProblem");
    problem_->setWordWrap(true);
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hint_->setWordWrap(true);
    hint_->setText(tr("Names: i, x, y, z, the variables, scalar arguments, every buffer by name (its element "
                      "i after the run), a(j) for element j, a_in for a buffer before the run. An element "
                      "passes when |got - expected| ≤ atol + rtol·|expected|."));
    QFont small = hint_->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    hint_->setFont(small);

    auto* tolerances = new QHBoxLayout;
    tolerances->setContentsMargins(0, 0, 0, 0);
    tolerances->addWidget(new QLabel(tr("rtol"), this));
    tolerances->addWidget(relTol_, 1);
    tolerances->addWidget(new QLabel(tr("atol"), this));
    tolerances->addWidget(absTol_, 1);

    fields_->setContentsMargins(0, 0, 0, 0);
    // The step beside the buffer: a row more would not fit the low tab.
    auto* bufferAndStep = new QHBoxLayout;
    bufferAndStep->setContentsMargins(0, 0, 0, 0);
    bufferAndStep->addWidget(buffer_, 2);
    stepLabel_->setBuddy(step_);
    bufferAndStep->addWidget(stepLabel_);
    bufferAndStep->addWidget(step_, 3);
    auto* bufferLabel = new QLabel(tr("&Buffer"), this);
    bufferLabel->setBuddy(buffer_);
    fields_->addRow(bufferLabel, bufferAndStep);
    fields_->addRow(tr("&Compare"), kind_);
    fields_->addRow(tr("A&ggregate"), aggregate_);
    fields_->addRow(tr("&Of"), of_);
    fields_->addRow(tr("&Expected"), expect_);
    fields_->addRow(tr("&Reference"), reference_);
    fields_->addRow(tr("Tolerances"), tolerances);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addStretch();
    // The list beside the selected check's fields: the Checks tab sits among the run's
    // views, wide and low under the editor, where fields below the list were out of view.
    auto* listColumn = new QVBoxLayout;
    listColumn->addLayout(buttons); // above the list: in view however low the tab
    listColumn->addWidget(list_, 1);
    auto* fieldColumn = new QVBoxLayout;
    fieldColumn->addLayout(fields_);
    fieldColumn->addWidget(problem_);
    fieldColumn->addWidget(hint_);
    fieldColumn->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(listColumn, 2);
    layout->addLayout(fieldColumn, 3);
    fields_->setVerticalSpacing(2);
    list_->setMinimumHeight(40);

    connect(add_, &QPushButton::clicked, this, &ChecksEditor::addCheck);
    connect(remove_, &QPushButton::clicked, this, &ChecksEditor::removeCheck);
    connect(list_, &QListWidget::currentRowChanged, this, &ChecksEditor::select);
    for (QComboBox* c : {step_, kind_, buffer_, aggregate_, reference_})
        connect(c, &QComboBox::currentIndexChanged, this, &ChecksEditor::fieldEdited);
    for (QLineEdit* e : {of_, expect_, relTol_, absTol_})
        connect(e, &QLineEdit::textEdited, this, &ChecksEditor::fieldEdited);
    showSelected(true);
}

ChecksEditor::Kind ChecksEditor::kindOf(const CheckSpec& check, const Document& doc)
{
    if (!check.aggregate.empty())
        return Kind::Aggregate;
    const std::string expect(trim(check.expect));
    if (expect != check.buffer && doc.findBuffer(expect) && !passedByArgument(doc, expect))
        return Kind::Reference;
    return Kind::Element;
}

void ChecksEditor::setDocument(const Document& doc)
{
    context_ = doc;
    checks_ = PlacedChecks::list(doc);
    kinds_.clear();
    for (const PlacedCheck& c : checks_)
        kinds_.push_back(kindOf(c.check, doc));
    fillChoices();
    {
        const QSignalBlocker quiet(list_);
        list_->clear();
        for (std::size_t i = 0; i < checks_.size(); ++i)
            list_->addItem(QString());
        selected_ = std::min(std::max(selected_, 0), int(checks_.size()) - 1);
        list_->setCurrentRow(selected_);
    }
    toleranceProblem_.clear();
    validate();
    showSelected(true);
}

void ChecksEditor::setContext(const Document& doc)
{
    if (!sameChecks(PlacedChecks::list(doc), checks_)) {
        // The steps changed under their checks (moved, removed, undone): shown anew.
        setDocument(doc);
        return;
    }
    context_ = doc;
    fillChoices();
    validate();
    showSelected(false);
}

// The buffers a check may name, in the document's order.
void ChecksEditor::fillChoices()
{
    QStringList names;
    for (const BufferSpec& b : context_.buffers)
        names << q(b.name);
    bufferNames_ = names;
}

QStringList ChecksEditor::referenceChoices(const std::string& checked) const
{
    // Reference buffers (passed to no argument: prepared for the checks) first.
    QStringList first, then;
    for (const BufferSpec& b : context_.buffers)
        if (b.name != checked)
            (passedByArgument(context_, b.name) ? then : first) << q(b.name);
    return first + then;
}

QString ChecksEditor::problemOf(int row) const
{
    if (row < 0 || row >= int(problems_.size()))
        return {};
    if (row == selected_ && !toleranceProblem_.isEmpty())
        return toleranceProblem_;
    return problems_[std::size_t(row)];
}

void ChecksEditor::validate()
{
    Document doc = context_;
    problems_.assign(checks_.size(), QString());
    bool placed = true;
    try {
        PlacedChecks::place(doc, checks_);
    } catch (const Error& e) {
        problems_.assign(checks_.size(), QString::fromUtf8(e.what()));
        placed = false;
    }
    // The row says which check: the message names the field within it.
    static const QRegularExpression where(QStringLiteral(R"((steps\[\d+\]\.)*checks\[\d+\]\.)"));
    std::map<std::string, std::size_t> atStep; // a check's index among its step's
    for (std::size_t i = 0; placed && i < checks_.size(); ++i) {
        try {
            DocumentValidator::validateCheck(doc, atStep[checks_[i].step]++, checks_[i].step);
        } catch (const Error& e) {
            problems_[i] = QString::fromUtf8(e.what()).remove(where);
        }
    }
    for (int r = 0; r < list_->count(); ++r)
        showRow(r);
}

QString ChecksEditor::summary(int row) const
{
    const CheckSpec& c = checks_[std::size_t(row)].check;
    const QString buffer = c.buffer.empty() ? tr("(no buffer)") : q(c.buffer);
    const QString expect = trim(c.expect).empty() ? tr("…") : q(c.expect);
    QString what;
    if (!c.aggregate.empty())
        what = QStringLiteral("%1(%2) ≈ %3").arg(q(c.aggregate), c.of.empty() ? buffer : q(c.of), expect);
    else
        what = QStringLiteral("%1 ≈ %2").arg(buffer, expect);
    what += QStringLiteral("   rtol %1, atol %2").arg(q(formatNumber(c.relTol)), q(formatNumber(c.absTol)));
    return context_.isSequence() ? stepLabel(checks_[std::size_t(row)].step) + QStringLiteral(": ") + what : what;
}

QString ChecksEditor::stepLabel(const std::string& path) const
{
    if (path.empty())
        return tr("after the last step");
    const StepSpec* step = StepPaths::find(context_.steps, path);
    if (!step)
        return tr("after step %1 (missing)").arg(q(path));
    QString what = q(step->name);
    if (what.isEmpty())
        what = q(toString(step->kind)) + (step->kind == StepSpec::Kind::Launch ? " " + q(step->kernel) : QString());
    return tr("after step %1 (%2)").arg(q(path), what);
}

void ChecksEditor::sortByStep()
{
    std::map<std::string, std::size_t> order;
    for (const auto& [path, step] : StepPaths::list(context_.steps))
        order.emplace(path, order.size());
    const auto place = [&](std::size_t i) {
        const auto at = order.find(checks_[i].step);
        return at == order.end() ? order.size() : at->second; // the document's last
    };
    std::vector<std::size_t> rows(checks_.size());
    std::iota(rows.begin(), rows.end(), 0);
    std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) { return place(a) < place(b); });
    std::vector<PlacedCheck> checks;
    std::vector<Kind> kinds;
    const int selected = selected_;
    for (std::size_t i : rows) {
        if (int(i) == selected)
            selected_ = int(checks.size());
        checks.push_back(checks_[i]);
        kinds.push_back(kinds_[i]);
    }
    checks_ = std::move(checks);
    kinds_ = std::move(kinds);
    const QSignalBlocker quiet(list_);
    list_->setCurrentRow(selected_);
}

void ChecksEditor::showRow(int row)
{
    QListWidgetItem* item = list_->item(row);
    if (!item || row >= int(checks_.size()))
        return;
    const QString problem = problemOf(row);
    const QString text = summary(row);
    item->setText(text);
    // The whole check on hover: a long expression is cut at the list's edge.
    item->setToolTip(problem.isEmpty() ? text : text + QLatin1Char('\n') + problem);
    item->setIcon(problem.isEmpty() ? QIcon() : style()->standardIcon(QStyle::SP_MessageBoxWarning));
    item->setForeground(problem.isEmpty() ? palette().text() : QBrush(ThemeColours::error(palette())));
}

void ChecksEditor::addCheck()
{
    PlacedCheck c;
    c.check.buffer = firstOutput(context_);
    // At the selected check's step: the step is chosen in its field.
    if (selected_ >= 0 && selected_ < int(checks_.size()))
        c.step = checks_[std::size_t(selected_)].step;
    checks_.push_back(c);
    kinds_.push_back(Kind::Element);
    {
        const QSignalBlocker quiet(list_);
        list_->addItem(QString());
        selected_ = int(checks_.size()) - 1;
    }
    sortByStep();
    toleranceProblem_.clear();
    validate();
    showSelected(true);
    emit changed(false);
    expect_->setFocus(); // what is left to say: what each element should be
}

void ChecksEditor::removeCheck()
{
    if (selected_ < 0 || selected_ >= int(checks_.size()))
        return;
    checks_.erase(checks_.begin() + selected_);
    kinds_.erase(kinds_.begin() + selected_);
    {
        const QSignalBlocker quiet(list_);
        delete list_->takeItem(selected_);
        selected_ = std::min(selected_, int(checks_.size()) - 1);
        list_->setCurrentRow(selected_);
    }
    toleranceProblem_.clear();
    validate();
    showSelected(true);
    emit changed(false);
}

void ChecksEditor::select(int row)
{
    selected_ = row;
    toleranceProblem_.clear();
    showSelected(true);
}

void ChecksEditor::showSelected(bool lineEdits)
{
    const bool any = selected_ >= 0 && selected_ < int(checks_.size());
    remove_->setEnabled(any);
    for (QWidget* w :
         std::initializer_list<QWidget*>{step_, kind_, buffer_, aggregate_, reference_, of_, expect_, relTol_, absTol_})
        w->setEnabled(any);
    const PlacedCheck placed = any ? checks_[std::size_t(selected_)] : PlacedCheck{};
    const CheckSpec& c = placed.check;
    const Kind kind = any ? kinds_[std::size_t(selected_)] : Kind::Element;
    showing_ = true;
    {
        const QSignalBlocker b0(step_), b1(kind_), b2(buffer_), b3(aggregate_), b4(reference_);
        step_->clear();
        if (context_.isSequence()) {
            for (const auto& [path, step] : StepPaths::list(context_.steps))
                step_->addItem(stepLabel(path), q(path));
            step_->addItem(stepLabel({}), q(std::string()));
        }
        step_->setCurrentIndex(step_->findData(q(placed.step)));
        kind_->setCurrentIndex(kind_->findData(int(kind)));
        buffer_->clear();
        buffer_->addItems(bufferNames_);
        if (!c.buffer.empty() && !bufferNames_.contains(q(c.buffer)))
            buffer_->addItem(q(c.buffer)); // named by the check, missing from the document: marked below
        buffer_->setCurrentIndex(buffer_->findText(q(c.buffer)));
        aggregate_->setCurrentIndex(std::max(0, aggregate_->findData(q(c.aggregate))));
        reference_->clear();
        reference_->addItems(referenceChoices(c.buffer));
        reference_->setCurrentIndex(kind == Kind::Reference ? reference_->findText(q(std::string(trim(c.expect))))
                                                            : -1);
    }
    // The lines are the check's source while it is typed in: only another check (or an
    // undo) replaces their text, so a half-typed tolerance stays as typed.
    if (lineEdits) {
        of_->setText(q(c.of));
        expect_->setText(q(c.expect));
        relTol_->setText(any ? q(numberText(c.relTol)) : QString());
        absTol_->setText(any ? q(numberText(c.absTol)) : QString());
    }
    showing_ = false;
    step_->setVisible(context_.isSequence());
    stepLabel_->setVisible(context_.isSequence());
    fields_->setRowVisible(aggregate_, kind == Kind::Aggregate);
    fields_->setRowVisible(of_, kind == Kind::Aggregate);
    fields_->setRowVisible(expect_, kind != Kind::Reference);
    fields_->setRowVisible(reference_, kind == Kind::Reference);
    const QString problem = any ? problemOf(selected_) : QString();
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    QPalette p = problem_->palette();
    p.setColor(QPalette::WindowText, ThemeColours::error(palette()));
    problem_->setPalette(p);
    if (list_->count() == 0)
        hint_->setText(tr("No checks: Add check compares a buffer with what it should hold after the run, "
                          "like np.allclose."));
    else
        hint_->setText(tr("Names: i, x, y, z, the variables, scalar arguments, every buffer by name (its "
                          "element i after the run), a(j) for element j, a_in for a buffer before the run. An "
                          "element passes when |got - expected| ≤ atol + rtol·|expected|."));
}

// A field of the selected check changed in its widget.
void ChecksEditor::fieldEdited()
{
    if (showing_ || selected_ < 0 || selected_ >= int(checks_.size()))
        return;
    if (step_->currentIndex() >= 0)
        checks_[std::size_t(selected_)].step = step_->currentData().toString().toStdString();
    CheckSpec& c = checks_[std::size_t(selected_)].check;
    Kind& kind = kinds_[std::size_t(selected_)];
    const Kind chosen = Kind(kind_->currentData().toInt());
    c.buffer = buffer_->currentText().toStdString();
    if (chosen != kind && chosen == Kind::Reference) {
        // The reference buffers first: the one most likely meant.
        const QStringList choices = referenceChoices(c.buffer);
        c.expect = choices.isEmpty() ? std::string() : choices.front().toStdString();
    }
    kind = chosen;
    if (kind == Kind::Aggregate) {
        c.aggregate = aggregate_->currentData().toString().toStdString();
        c.of = of_->text().toStdString();
        c.expect = expect_->text().toStdString();
        if (trim(c.expect).empty() && (c.aggregate == "any" || c.aggregate == "all"))
            c.expect = "1"; // as the file reads a missing expect of these two
    } else {
        c.aggregate.clear();
        c.of.clear();
        if (kind == Kind::Reference) {
            if (sender() == reference_ && reference_->currentIndex() >= 0)
                c.expect = reference_->currentText().toStdString();
        } else {
            c.expect = expect_->text().toStdString();
        }
    }
    toleranceProblem_.clear();
    const auto relTol = tolerance(relTol_->text()), absTol = tolerance(absTol_->text());
    if (relTol)
        c.relTol = *relTol;
    else
        toleranceProblem_ = tr("rtol: \"%1\" is not a number of 0 or more").arg(relTol_->text());
    if (absTol)
        c.absTol = *absTol;
    else if (toleranceProblem_.isEmpty())
        toleranceProblem_ = tr("atol: \"%1\" is not a number of 0 or more").arg(absTol_->text());
    sortByStep(); // a check moved to another step goes to its rows
    validate();
    showSelected(false);
    emit changed(qobject_cast<QLineEdit*>(sender()) != nullptr);
}

} // namespace kw
