/*
 * common/xml.h — XML text output shared by libsteady's writers (GraphML,
 * SVG).  Not installed.
 */
#ifndef STEADY_COMMON_XML_H
#define STEADY_COMMON_XML_H

#include <stdio.h>

/* Writes text with the five XML special characters escaped. */
void xml_escaped(FILE *out, const char *text);

#endif
