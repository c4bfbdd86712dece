/* fakeproc: a fake /proc tree in a temporary directory, for the unit tests
 * of what reads /proc (the process model, cgroups). */
#ifndef TRACETOP_TEST_FAKEPROC_H
#define TRACETOP_TEST_FAKEPROC_H

/* Write ROOT/rel (its directories made as needed) with text; fails the
 * test when it cannot. */
void fakeproc_put(const char *root, const char *rel, const char *text);

/* Remove the tree at root. */
void fakeproc_remove(const char *root);

#endif
