#pragma once

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QVariant>

namespace tf::ui {

// Every item that shows tool call ids (a tool result's id in the Wire, an assistant turn's calls, a tool run) answers
// this role with them (QStringList); a click on it follows the id to its result (ui/widgets/toolcalllinks.h).
inline constexpr int ToolCallIdsRole = Qt::UserRole + 64;

// How such a cell looks: a link.
inline QVariant toolCallLinkData(int role)
{
    if (role == Qt::ForegroundRole)
        return QBrush(QGuiApplication::palette().color(QPalette::Link));
    if (role == Qt::FontRole) {
        QFont f;
        f.setUnderline(true);
        return f;
    }
    return {};
}

} // namespace tf::ui
