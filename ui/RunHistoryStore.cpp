#include "RunHistoryStore.hpp"

#include "data/NpyFile.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"
#include "serve/ResultJson.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <set>

namespace kw {

namespace {
using json = nlohmann::json;

QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

QString bufferFile(int run, std::size_t index) { return QString("run-%1-buffer-%2.npy").arg(run).arg(index); }

json entryJson(const RunHistory::Entry& e, const std::vector<QString>& files)
{
    Document d = e.document;
    d.sourceFile.clear(); // the source as it was run travels inline
    json buffers = json::array();
    for (const QString& f : files)
        buffers.push_back(f.isEmpty() ? json(nullptr) : json(f.toStdString()));
    return {{"number", e.number},
            {"when", e.when.toString(Qt::ISODateWithMs).toStdString()},
            {"device", e.device.toStdString()},
            {"document", DocumentWriter::toString(d)},
            {"result", e.result ? toJson(*e.result) : json(nullptr)},
            {"buffer_files", buffers}};
}
} // namespace

RunHistoryStore::RunHistoryStore(QString root)
    : root_(root.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/run-history"
                           : std::move(root))
{
    writer_.setMaxThreadCount(1); // one save at a time, in the order asked
}

RunHistoryStore::~RunHistoryStore() { waitForSaves(); }

void RunHistoryStore::saveLater(const QString& documentPath, std::deque<RunHistory::Entry> entries)
{
    quint64 number = 0;
    {
        const std::lock_guard lock(latestMutex_);
        number = latest_[documentPath] = ++saves_;
    }
    // The entries are copies and their results immutable and shared: nothing here is
    // touched by the window while the thread writes.
    writer_.start([this, documentPath, entries = std::move(entries), number] {
        {
            const std::lock_guard lock(latestMutex_);
            if (latest_[documentPath] != number)
                return;
        }
        save(documentPath, entries);
    });
}

void RunHistoryStore::waitForSaves() { writer_.waitForDone(); }

QString RunHistoryStore::folderFor(const QString& documentPath) const
{
    const QByteArray hash = QCryptographicHash::hash(canonical(documentPath).toUtf8(), QCryptographicHash::Sha256);
    return root_ + '/' + QString::fromLatin1(hash.toHex().left(24));
}

bool RunHistoryStore::save(const QString& documentPath, const std::deque<RunHistory::Entry>& entries) const
{
    const QDir dir(folderFor(documentPath));
    if (!QDir().mkpath(dir.path()))
        return false;
    // Newest first within the budget: which buffers each run keeps on disk.
    std::vector<std::vector<QString>> files(entries.size());
    std::set<QString> kept;
    qint64 left = bufferBudgetBytes;
    for (std::size_t k = entries.size(); k-- > 0;) {
        const RunHistory::Entry& e = entries[k];
        if (!e.result)
            continue;
        for (std::size_t i = 0; i < e.result->buffers.size(); ++i) {
            const BufferResult& b = e.result->buffers[i];
            QString name;
            if (b.direction != Direction::In && qint64(b.data.byteSize()) <= left) {
                name = bufferFile(e.number, i);
                left -= qint64(b.data.byteSize());
                if (!dir.exists(name)) {
                    try {
                        NpyFile::write(dir.filePath(name).toStdString(), b.data, b.shape);
                    } catch (const std::exception&) {
                        name.clear();
                    }
                }
            }
            files[k].push_back(name);
            if (!name.isEmpty())
                kept.insert(name);
        }
    }
    json list = json::array();
    for (std::size_t k = 0; k < entries.size(); ++k)
        list.push_back(entryJson(entries[k], files[k]));
    const json whole = {{"document", canonical(documentPath).toStdString()}, {"runs", list}};
    QSaveFile out(dir.filePath("history.json"));
    if (!out.open(QIODevice::WriteOnly))
        return false;
    out.write(QByteArray::fromStdString(whole.dump()));
    if (!out.commit())
        return false;
    for (const QString& f : dir.entryList({"run-*.npy"}, QDir::Files))
        if (!kept.count(f))
            QFile::remove(dir.filePath(f));
    dropOldDocuments();
    return true;
}

std::deque<RunHistory::Entry> RunHistoryStore::load(const QString& documentPath)
{
    waitForSaves();
    std::deque<RunHistory::Entry> out;
    const QDir dir(folderFor(documentPath));
    QFile file(dir.filePath("history.json"));
    if (!file.open(QIODevice::ReadOnly))
        return out;
    try {
        const json whole = json::parse(file.readAll().toStdString());
        // A hash shared by two paths would be a collision: believe only our own document.
        if (whole.value("document", std::string()) != canonical(documentPath).toStdString())
            return out;
        for (const json& j : whole.at("runs")) {
            RunHistory::Entry e;
            e.number = j.at("number").get<int>();
            e.when = QDateTime::fromString(QString::fromStdString(j.at("when").get<std::string>()), Qt::ISODateWithMs);
            e.device = QString::fromStdString(j.at("device").get<std::string>());
            e.document = DocumentReader::parse(j.at("document").get<std::string>(), documentPath.toStdString());
            if (!j.at("result").is_null()) {
                RunResult r = runResultFromJson(j.at("result"));
                const json& files = j.at("buffer_files");
                std::vector<BufferResult> buffers;
                for (std::size_t i = 0; i < r.buffers.size() && i < files.size(); ++i) {
                    if (files[i].is_null())
                        continue; // not kept: over the budget, or an input
                    BufferResult b = std::move(r.buffers[i]);
                    NdArray a = NpyFile::read(
                        dir.filePath(QString::fromStdString(files[i].get<std::string>())).toStdString());
                    b.data = convertTo(a.data, b.data.dtype());
                    buffers.push_back(std::move(b));
                }
                r.buffers = std::move(buffers);
                e.result = std::make_shared<const RunResult>(std::move(r));
            }
            out.push_back(std::move(e));
        }
    } catch (const std::exception&) {
        return {}; // a damaged history is no history; the next run writes it again
    }
    return out;
}

void RunHistoryStore::dropOldDocuments() const
{
    const QFileInfoList folders = QDir(root_).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    for (int i = maxDocuments; i < folders.size(); ++i)
        QDir(folders[i].absoluteFilePath()).removeRecursively();
}

} // namespace kw
