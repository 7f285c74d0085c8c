#pragma once
// Keeps unsaved work safe: every few seconds, while the document is modified, it
// writes the recovery copy; after a session that did not end cleanly it offers the
// copy back. The window tells it what the document is and how to load one.
#include "doc/Document.hpp"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

class QWidget;

namespace kw {

class UnsavedWorkGuard : public QObject {
    Q_OBJECT
public:
    struct Window {
        std::function<bool()> modified;
        std::function<Document()> document;
        std::function<QString()> path;                                    // empty while untitled
        std::function<void(const Document&, const QString& origin)> load; // as a modified document
    };
    UnsavedWorkGuard(Window window, QObject* parent = nullptr);

    void startAutosave(int intervalMs);
    static QString file();
    bool exists() const;
    // Writes the recovery copy while the document is modified.
    void write();
    void remove();
    // Asks (in a dialog over `parent`), then restores or discards.
    void offer(QWidget* parent);
    // Loads the copy and removes it; false (and restoreFailed) when it cannot be read.
    bool restore();

signals:
    void writeFailed(const QString& message);
    void restoreFailed(const QString& message);

private:
    Window window_;
    QTimer timer_;
};

} // namespace kw
