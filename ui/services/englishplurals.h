#pragma once

#include <QTranslator>

namespace tf::ui {

// The English plural of every "%n thing(s)" the UI writes: "1 call", "80 calls", "1 miss", "2 misses". Qt picks a
// numerus form only from a translation; without one it prints "80 call(s)". This translator is that translation for
// English, by one rule over the source text, so no string needs a second English copy: "(s)", "(es)" and "(ies)"
// after a word are dropped when n is 1 and become the suffix otherwise ("entr(ies)" -> "entry" / "entries").
class EnglishPlurals : public QTranslator
{
public:
    using QTranslator::QTranslator;

    QString translate(const char *context, const char *sourceText, const char *disambiguation = nullptr,
                      int n = -1) const override;
    bool isEmpty() const override { return false; }

    // The rule itself, for tests and for text that does not go through tr().
    static QString pluralize(const QString &text, int n);
};

} // namespace tf::ui
