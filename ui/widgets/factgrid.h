#pragma once

#include <QList>
#include <QWidget>

class QGridLayout;
class QLabel;

namespace tf::ui {

class SelectableLabel;

// Caption and value pairs, two to a row where they fit side by side, one to a row (its value wrapping) where they do
// not: a narrow dock or a large font reads every fact whole instead of "31.5 s (TTL 5".
class FactGrid : public QWidget
{
    Q_OBJECT

public:
    explicit FactGrid(QWidget *parent = nullptr);

    // The value's label (plain text, selectable). A wide fact takes a row of its own in either layout.
    SelectableLabel *addFact(const QString &caption, bool wide = false);
    // Lays the facts out again for their current values; call after setting them.
    void refit();
    // Whether the fact whose value is `value` has another beside it.
    bool sideBySide(const QLabel *value) const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Fact
    {
        QLabel *caption;
        SelectableLabel *value;
        bool wide;
    };
    static int textWidth(const QLabel *label);
    QList<bool> pairing(int width) const;
    void place(const QList<bool> &paired);

    QGridLayout *m_grid;
    QList<Fact> m_facts;
    QList<bool> m_paired;
    bool m_placed = false;
};

} // namespace tf::ui
