#pragma once
// The document's named variables (name, expression) with each one's value,
// evaluated in order so later ones may use earlier ones.
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QTableWidget;

namespace kw {

class VariablesTable : public QWidget {
    Q_OBJECT
public:
    using Variables = std::vector<std::pair<std::string, std::string>>;
    explicit VariablesTable(QWidget* parent = nullptr);

    void setVariables(const Variables& variables);
    Variables variables() const;
    QStringList names() const;

signals:
    void changed();

private:
    void evaluate();
    void addRow(const QString& name, const QString& expression);

    QTableWidget* table_;
    bool loading_ = false;
};

} // namespace kw
