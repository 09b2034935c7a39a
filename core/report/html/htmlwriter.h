#pragma once

#include "core/report/htmlescape.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace tf::report::html {

// The reports' one HTML writer: markup goes in through raw() and is the caller's own text; everything else goes in
// through text()/text16(), which is the one escaping rule (htmlescape.h). A section never appends to a string itself.
class HtmlWriter
{
public:
    HtmlWriter &raw(std::string_view s)
    {
        m_out += s;
        return *this;
    }
    HtmlWriter &text(std::string_view wtf8)
    {
        appendEscaped(m_out, wtf8);
        return *this;
    }
    HtmlWriter &text16(std::u16string_view u)
    {
        m_out += escapeHtml(u);
        return *this;
    }
    HtmlWriter &num(std::size_t n)
    {
        m_out += std::to_string(n);
        return *this;
    }
    std::string &str() { return m_out; }

private:
    std::string m_out;
};

} // namespace tf::report::html
