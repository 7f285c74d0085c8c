#include "SetupProposalDialog.hpp"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

QString shapeWords(SetupProposal::Shape shape)
{
    switch (shape) {
    case SetupProposal::Shape::Line: return QObject::tr("a line of elements, one thread each");
    case SetupProposal::Shape::Grid: return QObject::tr("a 2-D grid of elements, one thread each");
    case SetupProposal::Shape::MatrixProduct: return QObject::tr("a matrix product, one thread per element of C");
    case SetupProposal::Shape::None: break;
    }
    return {};
}

QTableWidgetItem* fixed(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setToolTip(text);
    return item;
}
} // namespace

SetupProposalDialog::SetupProposalDialog(const SetupProposal& proposal, const QString& kernel, QWidget* parent)
    : QDialog(parent)
    , proposal_(proposal)
    , heading_(new QLabel(this))
    , sizes_(new QTableWidget(0, 2, this))
    , notes_(new QTableWidget(0, 2, this))
{
    setWindowTitle(tr("Set up from the signature"));
    setObjectName("setupProposalDialog");
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    auto* buttons = new QDialogButtonBox(this);
    if (proposal.understood()) {
        heading_->setText(tr("The parameters of %1 read as %2. Nothing changes until you choose Set up; each line "
                             "says what it was inferred from. The sizes can be changed here, the rest in the "
                             "Arguments and Launch panels afterwards (Undo takes it all back).")
                              .arg(kernel, shapeWords(proposal.shape)));
        setUp_ = buttons->addButton(tr("Set up"), QDialogButtonBox::AcceptRole);
        buttons->addButton(QDialogButtonBox::Cancel);
    } else {
        heading_->setText(tr("The set-up of %1 cannot be read from its parameters: %2.\n\nSet the buffers in the "
                             "Arguments panel and the launch in the Launch panel.")
                              .arg(kernel, q(proposal.reason)));
        buttons->addButton(QDialogButtonBox::Close);
    }
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    sizes_->setObjectName("setupSizes");
    sizes_->setHorizontalHeaderLabels({tr("Size"), tr("Value")});
    sizes_->verticalHeader()->hide();
    sizes_->horizontalHeader()->setStretchLastSection(true);
    sizes_->setRowCount(int(proposal.variables.size()));
    for (int r = 0; r < sizes_->rowCount(); ++r) {
        sizes_->setItem(r, 0, fixed(q(proposal.variables[std::size_t(r)].first)));
        sizes_->setItem(r, 1, new QTableWidgetItem(q(proposal.variables[std::size_t(r)].second)));
    }
    sizes_->setMaximumHeight(sizes_->horizontalHeader()->sizeHint().height()
                             + (sizes_->rowCount() + 1) * sizes_->verticalHeader()->defaultSectionSize());
    notes_->setObjectName("setupNotes");
    notes_->setHorizontalHeaderLabels({tr("Proposed"), tr("Inferred from")});
    notes_->verticalHeader()->hide();
    notes_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    notes_->setWordWrap(true);
    notes_->setRowCount(int(proposal.notes.size()));
    for (int r = 0; r < notes_->rowCount(); ++r) {
        notes_->setItem(r, 0, fixed(q(proposal.notes[std::size_t(r)].what)));
        notes_->setItem(r, 1, fixed(q(proposal.notes[std::size_t(r)].from)));
    }
    notes_->resizeRowsToContents();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(sizes_);
    layout->addWidget(notes_, 1);
    layout->addWidget(buttons);
    sizes_->setVisible(proposal.understood());
    notes_->setVisible(proposal.understood());
    resize(proposal.understood() ? 760 : 480, proposal.understood() ? 460 : 180);
}

SetupProposal SetupProposalDialog::proposal() const
{
    SetupProposal p = proposal_;
    for (int r = 0; r < sizes_->rowCount() && r < int(p.variables.size()); ++r)
        p.variables[std::size_t(r)].second = sizes_->item(r, 1)->text().trimmed().toStdString();
    return p;
}

} // namespace kw
