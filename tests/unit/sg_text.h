/*
 * sg_text.h — SimGrid platform texts of the unit tests (test_simgrid.c,
 * test_simgrid_errors.c): the lines around them, so that an error's line
 * number is known.
 */
#ifndef STEADY_TESTS_SG_TEXT_H
#define STEADY_TESTS_SG_TEXT_H

/* Two header lines: in the tests, the <zone> is on line 3. */
#define HEAD "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
#define TAIL "</platform>\n"

/* A zone with hosts a, b, c (line 3 to 6), then the given lines. */
#define ABC(body)                                                                                  \
    HEAD "<zone id=\"z\" routing=\"Full\">\n"                                                      \
         "<host id=\"a\" speed=\"1Gf\"/>\n"                                                        \
         "<host id=\"b\" speed=\"1Gf\"/>\n"                                                        \
         "<host id=\"c\" speed=\"1Gf\"/>\n" body "</zone>\n" TAIL

#endif
