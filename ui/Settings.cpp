#include "Settings.hpp"

namespace kw {

namespace key {
constexpr auto geometry = "window/geometry";
constexpr auto state = "window/state";
constexpr auto fontSize = "editor/fontSize";
constexpr auto annotations = "editor/inlineAnnotations";
constexpr auto runAsYouType = "run/asYouType";
constexpr auto device = "run/device";
constexpr auto recent = "files/recent";
constexpr auto trusted = "files/trusted";
constexpr auto runners = "runners/saved";
constexpr auto runnerName = "name";
constexpr auto runnerCommand = "command";
constexpr auto lastRunner = "runners/last";
constexpr auto gettingStarted = "help/gettingStartedShown";
} // namespace key

Settings::Settings() = default;

QByteArray Settings::windowGeometry() const { return s_.value(key::geometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray& g) { s_.setValue(key::geometry, g); }
QByteArray Settings::windowState() const { return s_.value(key::state).toByteArray(); }
void Settings::setWindowState(const QByteArray& st) { s_.setValue(key::state, st); }

int Settings::editorFontSize() const { return s_.value(key::fontSize, 11).toInt(); }
void Settings::setEditorFontSize(int points) { s_.setValue(key::fontSize, points); }

bool Settings::inlineAnnotations() const { return s_.value(key::annotations, true).toBool(); }
void Settings::setInlineAnnotations(bool on) { s_.setValue(key::annotations, on); }

bool Settings::runAsYouType() const { return s_.value(key::runAsYouType, false).toBool(); }
void Settings::setRunAsYouType(bool on) { s_.setValue(key::runAsYouType, on); }

bool Settings::gettingStartedShown() const { return s_.value(key::gettingStarted, false).toBool(); }
void Settings::setGettingStartedShown(bool shown) { s_.setValue(key::gettingStarted, shown); }

QString Settings::lastDevice() const { return s_.value(key::device).toString(); }
void Settings::setLastDevice(const QString& id) { s_.setValue(key::device, id); }

QStringList Settings::trustedDocuments() const { return s_.value(key::trusted).toStringList(); }
void Settings::setTrustedDocuments(const QStringList& hashes) { s_.setValue(key::trusted, hashes); }
QList<QPair<QString, QString>> Settings::savedRunners() const
{
    QList<QPair<QString, QString>> list;
    auto& s = const_cast<QSettings&>(s_);
    const int n = s.beginReadArray(key::runners);
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        list.append({s.value(key::runnerName).toString(), s.value(key::runnerCommand).toString()});
    }
    s.endArray();
    return list;
}

void Settings::setSavedRunners(const QList<QPair<QString, QString>>& runners)
{
    s_.beginWriteArray(key::runners, int(runners.size()));
    for (int i = 0; i < runners.size(); ++i) {
        s_.setArrayIndex(i);
        s_.setValue(key::runnerName, runners[i].first);
        s_.setValue(key::runnerCommand, runners[i].second);
    }
    s_.endArray();
}

QString Settings::lastRunner() const { return s_.value(key::lastRunner).toString(); }
void Settings::setLastRunner(const QString& name) { s_.setValue(key::lastRunner, name); }

QStringList Settings::recentFiles() const { return s_.value(key::recent).toStringList(); }

void Settings::addRecentFile(const QString& path)
{
    QStringList list = recentFiles();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > maxRecent)
        list.removeLast();
    s_.setValue(key::recent, list);
}

void Settings::removeRecentFile(const QString& path)
{
    QStringList list = recentFiles();
    list.removeAll(path);
    s_.setValue(key::recent, list);
}

} // namespace kw
