#pragma once
// What SignatureSetup proposes for a kernel, shown before anything changes: the sizes
// (their values editable), each buffer, argument and the launch with what it was
// inferred from. "Set up" takes it (DocumentPanels makes it one edit); a signature that
// gives no sizes is said, with nothing to take.
#include "doc/SignatureSetup.hpp"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace kw {

class SetupProposalDialog : public QDialog {
    Q_OBJECT
public:
    SetupProposalDialog(const SetupProposal& proposal, const QString& kernel, QWidget* parent = nullptr);

    // The proposal with the sizes as edited here.
    SetupProposal proposal() const;

    QLabel* heading() const { return heading_; }
    QTableWidget* sizes() const { return sizes_; }
    QTableWidget* notes() const { return notes_; }
    QPushButton* setUpButton() const { return setUp_; } // null when nothing is proposed

private:
    SetupProposal proposal_;
    QLabel* heading_;
    QTableWidget* sizes_;
    QTableWidget* notes_;
    QPushButton* setUp_ = nullptr;
};

} // namespace kw
