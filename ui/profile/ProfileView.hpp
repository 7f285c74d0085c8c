#pragma once
// The Profile view of a run: what the simulator counted, per source line. The chosen
// counter (which also colours the editor margin) with its legend, the kernel's totals,
// the lines in a table sorted by cost, the findings, and the memory-access picture of
// one line and warp. A run without counters (on a GPU, or not profiled) says where
// counters come from and offers to profile on the simulator.
#include "launch/RunResult.hpp"
#include "profile/ProfileMetric.hpp"
#include "profile/ProfileSource.hpp"
#include "run/ProfileFindings.hpp"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QFrame;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace kw {

class AccessPicture;
class FindingsList;
class HeatLegend;
class ProfileTableModel;

class ProfileView : public QWidget {
    Q_OBJECT
public:
    explicit ProfileView(QWidget* parent = nullptr);

    // requested: what the run was asked to profile; its capture says which line, block
    // and warp the result's samples are of.
    void showResult(const RunResult& result, const ProfileRequest& requested = {});
    void showProfile(const KernelProfile& profile, const ProfileRequest& requested = {});
    // The text the table shows beside each line, under the name the compiler gave it.
    void setSource(const QString& text, const QString& fileName);
    // The launch the blocks and warps of the chooser range over.
    void setLaunch(Dim3 grid, Dim3 block);
    void setFindings(const std::vector<ProfileFinding>& findings);
    void clear();

    ProfileMetric metric() const;
    void setMetric(ProfileMetric metric);
    bool hasProfile() const { return profile_.has_value(); }
    // The line, block and warp the memory-access chooser names.
    AccessCaptureRequest chosenCapture() const;
    void chooseCapture(int line, Dim3 block, std::uint32_t warp);
    // Selects the line's row (a click in the editor margin) and names it in the chooser.
    void selectLine(int line);

    // Parts, for tests and the window.
    QComboBox* metricChooser() const { return metric_; }
    HeatLegend* legend() const { return legend_; }
    QLabel* totalsLabel() const { return totals_; }
    QFrame* notice() const { return notice_; }
    QLabel* noticeText() const { return noticeText_; }
    QPushButton* profileButton() const { return profileButton_; }
    QTabWidget* tabs() const { return tabs_; }
    QTableView* table() const { return table_; }
    ProfileTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    FindingsList* findings() const { return findings_; }
    AccessPicture* picture() const { return picture_; }
    QComboBox* lineChooser() const { return line_; }
    QSpinBox* warpChooser() const { return warp_; }
    QSpinBox* executionChooser() const { return execution_; }
    QPushButton* recordButton() const { return record_; }

signals:
    // Profile again on the simulator, recording the lanes of this line, block and warp
    // (line 0: no line chosen yet).
    void profileRequested(int line, kw::Dim3 block, quint32 warp);
    void lineActivated(int line); // 1-based, in the editor's file
    void metricChanged(kw::ProfileMetric metric);

protected:
    void changeEvent(QEvent* e) override;

private:
    void tintNotice(); // the notice's background, from the palette
    void showNotice(const QString& text);
    void fillLineChooser();
    void updatePicture();
    void activateRow(const QModelIndex& index);
    void requestProfile();

    std::optional<KernelProfile> profile_;
    ProfileRequest requested_;
    ProfileSource source_;
    QString sourceText_, sourceName_;
    Dim3 grid_{1, 1, 1}, block_{1, 1, 1};

    QComboBox* metric_;
    HeatLegend* legend_;
    QLabel* totals_;
    QFrame* notice_;
    QLabel* noticeText_;
    QPushButton* profileButton_;
    QTabWidget* tabs_;
    QTableView* table_;
    ProfileTableModel* model_;
    QSortFilterProxyModel* proxy_;
    FindingsList* findings_;
    AccessPicture* picture_;
    QComboBox* line_;
    QSpinBox *blockX_, *blockY_, *blockZ_, *warp_, *execution_;
    QLabel* executions_;
    QPushButton* record_;
    QPushButton* export_;
};

} // namespace kw
