#pragma once
// Edits one buffer: count, display shape, initialiser, direction, plot flag,
// with a preview of its first values.
#include "doc/Document.hpp"

#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace kw {

class BufferEditor : public QWidget {
    Q_OBJECT
public:
    explicit BufferEditor(QWidget* parent = nullptr);

    void setBuffer(const BufferSpec& buffer);
    BufferSpec buffer() const;
    // Computes the preview text for a buffer; set by the owner, which knows the variables.
    using Preview = std::function<QString(const BufferSpec&)>;
    void setPreview(Preview preview);
    void refreshPreview();
    // Where a picked file is made relative to (the document's folder).
    void setBaseDir(const QString& dir) { baseDir_ = dir; }

signals:
    void changed();

private:
    void pickFile();
    void emitChanged();

    QString name_;
    QString baseDir_;
    Preview preview_;
    bool loading_ = false;
    QLabel* title_;
    QLineEdit* count_;
    QLineEdit* shape_;
    QComboBox* dtype_;
    QComboBox* direction_;
    QComboBox* kind_;
    QStackedWidget* params_;
    QLineEdit* fillValue_;
    QLineEdit* arangeStart_;
    QLineEdit* arangeStep_;
    QLineEdit* linStart_;
    QLineEdit* linStop_;
    QLineEdit* low_;
    QLineEdit* high_;
    QLineEdit* uniSeed_;
    QLineEdit* mean_;
    QLineEdit* stddev_;
    QLineEdit* normSeed_;
    QLineEdit* expr_;
    QLineEdit* file_;
    QCheckBox* plot_;
    QLabel* previewLabel_;
};

} // namespace kw
