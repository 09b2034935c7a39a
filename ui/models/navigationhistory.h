#pragma once

#include <QList>

namespace tf::ui {

// Where the user has been, call by call, for Go > Back and Forward (Alt+Left / Alt+Right, the mouse's back and
// forward buttons). Stepping to an adjacent call moves the current entry instead of adding one, so reading
// through a run call by call leaves one entry and Back returns to where the reading started from a jump, as an
// IDE's navigation history does. A visit after going back drops the forward entries, as a browser does.
class NavigationHistory
{
public:
    // The call now shown (0-based). Visits made by back() or forward() themselves are not new entries.
    void visit(int ordinal);
    // The next visit is a jump (a link followed, a search match): it gets an entry of its own even when it is the
    // adjacent call, so that Back returns to where the user was.
    void markJump() { m_jumping = true; }
    // The call to show, or -1 when there is nothing in that direction.
    int back();
    int forward();
    bool canGoBack() const { return m_index > 0; }
    bool canGoForward() const { return m_index + 1 < m_entries.size(); }
    void clear();

    const QList<int> &entries() const { return m_entries; }
    int index() const { return int(m_index); }

private:
    static constexpr qsizetype kMaxEntries = 200;

    QList<int> m_entries;
    qsizetype m_index = -1;
    int m_travelling = -1; // the call back() or forward() asked for, until its visit arrives
    bool m_jumping = false;
};

} // namespace tf::ui
