#include "ui/models/navigationhistory.h"

#include <cstdlib>
#include <utility>

namespace tf::ui {

void NavigationHistory::visit(int ordinal)
{
    if (ordinal < 0)
        return;
    if (m_travelling >= 0) {
        const bool arrived = ordinal == m_travelling;
        m_travelling = -1;
        if (arrived)
            return;
    }
    const bool jump = std::exchange(m_jumping, false);
    if (m_index >= 0 && m_entries[m_index] == ordinal)
        return;
    if (!jump && m_index >= 0 && std::abs(m_entries[m_index] - ordinal) == 1 && !canGoForward()) {
        m_entries[m_index] = ordinal;
        return;
    }
    m_entries.resize(m_index + 1);
    m_entries.append(ordinal);
    if (m_entries.size() > kMaxEntries)
        m_entries.removeFirst();
    m_index = m_entries.size() - 1;
}

int NavigationHistory::back()
{
    if (!canGoBack())
        return -1;
    m_travelling = m_entries[--m_index];
    return m_travelling;
}

int NavigationHistory::forward()
{
    if (!canGoForward())
        return -1;
    m_travelling = m_entries[++m_index];
    return m_travelling;
}

void NavigationHistory::clear()
{
    m_entries.clear();
    m_index = -1;
    m_travelling = -1;
    m_jumping = false;
}

} // namespace tf::ui
