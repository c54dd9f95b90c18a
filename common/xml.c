/*
 * xml.c — XML text output (common/xml.h).
 */
#include "xml.h"

void xml_escaped(FILE *out, const char *text)
{
    for (const char *s = text; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*s, out);
        }
}
