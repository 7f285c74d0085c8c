#include "views/SweepPanel.hpp"

#include "ThemeColours.hpp"

#include "PlotTheme.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {

SweepPanel::SweepPanel(QWidget* parent)
    : QWidget(parent)
    , kind_(new QComboBox(this))
    , name_(new QLineEdit(this))
    , values_(new QLineEdit(this))
    , run_(new QPushButton(tr("Run sweep"), this))
    , status_(new QLabel(this))
    , plot_(new QCustomPlot(this))
    , points_(new QTableWidget(this))
{
    kind_->addItem(tr("Block size (x)"), int(SweepRequest::BlockSize));
    kind_->addItem(tr("-D macro value"), int(SweepRequest::Macro));
    kind_->addItem(tr("Variable value"), int(SweepRequest::Variable));
    values_->setPlaceholderText(tr("e.g. 32 64 128 256 or 32:1024"));
    values_->setText(QStringLiteral("32:1024"));

    auto* form = new QHBoxLayout;
    form->addWidget(new QLabel(tr("Sweep:"), this));
    form->addWidget(kind_);
    form->addWidget(name_);
    form->addWidget(new QLabel(tr("Values:"), this));
    form->addWidget(values_, 1);
    form->addWidget(run_);

    plot_->xAxis->setLabel(tr("block size"));
    plot_->yAxis->setLabel(tr("median kernel time (ms)"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    auto* g = plot_->addGraph();
    g->setPen(QPen(QColor(31, 119, 180), 2));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(31, 119, 180), Qt::white, 8));

    points_->setColumnCount(2);
    points_->setHorizontalHeaderLabels({tr("Parameter"), tr("Median (ms)")});
    points_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    points_->verticalHeader()->hide();
    points_->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(plot_);
    split->addWidget(points_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(split, 1);

    connect(kind_, qOverload<int>(&QComboBox::currentIndexChanged), this, &SweepPanel::updateKind);
    connect(run_, &QPushButton::clicked, this, &SweepPanel::start);
    connect(values_, &QLineEdit::returnPressed, this, &SweepPanel::start);
    updateKind();
    PlotTheme::follow(plot_);
}

void SweepPanel::setSimulated(bool on)
{
    simulated_ = on;
    plot_->yAxis->setLabel(on ? tr("median simulator time (ms, CPU)") : tr("median kernel time (ms)"));
    points_->setHorizontalHeaderLabels({tr("Parameter"), on ? tr("Simulator median (ms)") : tr("Median (ms)")});
    plot_->replot();
}

void SweepPanel::updateKind()
{
    const int kind = kind_->currentData().toInt();
    const bool named = kind != SweepRequest::BlockSize;
    name_->setVisible(named);
    name_->setPlaceholderText(kind == SweepRequest::Variable ? tr("variable name, e.g. tile")
                                                             : tr("macro name, e.g. TILE"));
    plot_->xAxis->setLabel(kind == SweepRequest::Macro          ? tr("macro value")
                               : kind == SweepRequest::Variable ? tr("variable value")
                                                                : tr("block size (threads)"));
    // Block sizes are powers of two more often than not: a log-2 axis spaces them evenly.
    if (named) {
        plot_->xAxis->setScaleType(QCPAxis::stLinear);
        plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    } else {
        plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> log(new QCPAxisTickerLog);
        log->setLogBase(2);
        log->setSubTickCount(0);
        plot_->xAxis->setTicker(log);
        plot_->xAxis->setNumberFormat(QStringLiteral("g"));
    }
    plot_->replot();
}

QStringList SweepPanel::splitValues(const QString& text)
{
    static const QRegularExpression sep(QStringLiteral("[,;\\s]+"));
    static const QRegularExpression range(QStringLiteral("^(\\d+):(\\d+)$"));
    QStringList out;
    for (const QString& part : text.split(sep, Qt::SkipEmptyParts)) {
        const auto m = range.match(part);
        if (!m.hasMatch()) {
            out << part;
            continue;
        }
        const qulonglong from = m.captured(1).toULongLong(), to = m.captured(2).toULongLong();
        for (qulonglong v = from; v > 0 && v <= to && out.size() < 4096; v *= 2)
            out << QString::number(v);
    }
    return out;
}

std::optional<SweepRequest> SweepPanel::request(QString* error) const
{
    const auto fail = [error](const QString& message) -> std::optional<SweepRequest> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    SweepRequest r;
    r.kind = SweepRequest::Kind(kind_->currentData().toInt());
    const QStringList values = splitValues(values_->text());
    if (values.isEmpty())
        return fail(tr("List at least one value."));
    if (r.kind != SweepRequest::BlockSize) {
        static const QRegularExpression ident(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        const QString name = name_->text().trimmed();
        if (!ident.match(name).hasMatch())
            return fail(r.kind == SweepRequest::Macro ? tr("\"%1\" is not a macro name.").arg(name)
                                                      : tr("\"%1\" is not a variable name.").arg(name));
        r.name = name.toStdString();
    }
    for (const QString& v : values) {
        bool ok = false;
        v.toDouble(&ok);
        if (r.kind == SweepRequest::BlockSize) {
            const uint n = v.toUInt(&ok);
            if (!ok || n == 0 || n > 1024)
                return fail(tr("Block size \"%1\" is not a whole number from 1 to 1024.").arg(v));
        } else if (!ok) {
            return fail(tr("Value \"%1\" is not a number: the plot needs numbers.").arg(v));
        }
        r.values.push_back(v.toStdString());
    }
    return r;
}

void SweepPanel::start()
{
    QString error;
    const auto r = request(&error);
    if (!r) {
        status_->setText(error);
        status_->setStyleSheet(QStringLiteral("color: %1;").arg(ThemeColours::error(palette()).name()));
        return;
    }
    status_->setStyleSheet(QString());
    if (r->kind == SweepRequest::Macro)
        plot_->xAxis->setLabel(tr("%1 (macro)").arg(QString::fromStdString(r->name)));
    else if (r->kind == SweepRequest::Variable)
        plot_->xAxis->setLabel(QString::fromStdString(r->name));
    plot_->graph(0)->data()->clear();
    points_->setRowCount(0);
    expected_ = int(r->values.size());
    running_ = true;
    run_->setEnabled(false);
    status_->setText(tr("Running 0 of %1...").arg(expected_));
    plot_->replot();
    emit sweepRequested(*r);
}

void SweepPanel::addPoint(double parameter, double medianMs)
{
    plot_->graph(0)->addData(parameter, medianMs);
    const int row = points_->rowCount();
    points_->insertRow(row);
    points_->setItem(row, 0, new QTableWidgetItem(QString::number(parameter, 'g', 10)));
    points_->setItem(row, 1, new QTableWidgetItem(QString::number(medianMs, 'g', 6)));
    if (running_)
        status_->setText(tr("Running %1 of %2...").arg(row + 1).arg(expected_));
    bool found = false;
    QCPRange x = plot_->graph(0)->getKeyRange(found);
    const QCPRange y = plot_->graph(0)->getValueRange(found);
    if (plot_->xAxis->scaleType() == QCPAxis::stLogarithmic)
        plot_->xAxis->setRange(x.lower / 1.4, x.upper * 1.4);
    else
        plot_->xAxis->setRange(x.lower - std::max(1.0, x.size() * 0.05), x.upper + std::max(1.0, x.size() * 0.05));
    plot_->yAxis->setRange(0, y.upper * 1.15 + 1e-9);
    plot_->replot();
}

void SweepPanel::finish()
{
    running_ = false;
    run_->setEnabled(true);
    const int n = points_->rowCount();
    if (n == 0) {
        status_->setText(tr("Sweep finished without results."));
        return;
    }
    int best = 0;
    for (int i = 1; i < n; ++i)
        if (points_->item(i, 1)->text().toDouble() < points_->item(best, 1)->text().toDouble())
            best = i;
    if (simulated_) {
        // The simulator's CPU time follows the instructions simulated, not how a GPU
        // schedules the blocks: no point is marked best.
        status_->setText(tr("Done: %1 of %2 points. Simulator times (CPU), shortest at %3 (%4 ms): they do not "
                            "say which value is fastest on a GPU.")
                             .arg(n)
                             .arg(expected_)
                             .arg(points_->item(best, 0)->text(), points_->item(best, 1)->text()));
        return;
    }
    for (int c = 0; c < 2; ++c)
        points_->item(best, c)->setBackground(QColor(200, 230, 201));
    status_->setText(tr("Done: %1 of %2 points; fastest at %3 (%4 ms).")
                         .arg(n)
                         .arg(expected_)
                         .arg(points_->item(best, 0)->text(), points_->item(best, 1)->text()));
}

} // namespace kw
