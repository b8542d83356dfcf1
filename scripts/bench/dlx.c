/* A textbook dancing-links solver (Knuth's Algorithm X) for N×N Sudoku with R×C boxes, the
 * reference of `scripts/bench.sh shapes`.
 *
 *   dlx solve|count FILE     one puzzle per line, N·N cells (1-9 then A-P, `.` blank)
 *
 * The exact-cover matrix has 4·N² columns (each cell filled; each row, column and box holding each
 * value) and N³ rows (a value in a cell), built once. A puzzle covers the rows of its givens, then
 * the search picks the column with the fewest rows, as the textbook does. `solve` prints each
 * puzzle's first solution; `count` counts up to 2 and prints the count. bench.sh times the whole
 * process, as it times sudoku-gen; it builds this file with `cc -O2`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Node { int left, right, up, down, column, row; } Node;

static Node *node;
static int *size_of, n, br, bc, columns, solution[625], depth, found, limit;
static int answer[625];
static const char *symbols = "123456789ABCDEFGHIJKLMNOP";

static void cover(int c) {
  node[node[c].right].left = node[c].left;
  node[node[c].left].right = node[c].right;
  for (int i = node[c].down; i != c; i = node[i].down)
    for (int j = node[i].right; j != i; j = node[j].right) {
      node[node[j].down].up = node[j].up;
      node[node[j].up].down = node[j].down;
      size_of[node[j].column]--;
    }
}

static void uncover(int c) {
  for (int i = node[c].up; i != c; i = node[i].up)
    for (int j = node[i].left; j != i; j = node[j].left) {
      size_of[node[j].column]++;
      node[node[j].down].up = j;
      node[node[j].up].down = j;
    }
  node[node[c].right].left = c;
  node[node[c].left].right = c;
}

static void search(void) {
  if (node[0].right == 0) {
    if (found++ == 0)
      for (int k = 0; k < depth; k++) answer[solution[k] / n] = solution[k] % n;
    return;
  }
  int best = node[0].right;
  for (int c = node[0].right; c != 0; c = node[c].right)
    if (size_of[c] < size_of[best]) best = c;
  cover(best);
  for (int r = node[best].down; r != best && found < limit; r = node[r].down) {
    solution[depth++] = node[r].row;
    for (int j = node[r].right; j != r; j = node[j].right) cover(node[j].column);
    search();
    for (int j = node[r].left; j != r; j = node[j].left) uncover(node[j].column);
    depth--;
  }
  uncover(best);
}

/* The first node of each matrix row (row = cell * n + value). */
static int *row_start;

static void build(void) {
  columns = 4 * n * n;
  int nodes = 1 + columns + 4 * n * n * n;
  node = calloc(nodes, sizeof *node);
  size_of = calloc(columns + 1, sizeof *size_of);
  row_start = calloc(n * n * n, sizeof *row_start);
  for (int c = 0; c <= columns; c++) {
    node[c] = (Node){c - 1, c + 1, c, c, c, -1};
  }
  node[0].left = columns;
  node[columns].right = 0;
  int next = columns + 1;
  for (int cell = 0; cell < n * n; cell++)
    for (int v = 0; v < n; v++) {
      int r = cell / n, k = cell % n, b = (r / br) * (n / bc) + k / bc;
      int cols[4] = {1 + cell, 1 + n * n + r * n + v, 1 + 2 * n * n + k * n + v,
                     1 + 3 * n * n + b * n + v};
      row_start[cell * n + v] = next;
      for (int i = 0; i < 4; i++) {
        int x = next + i, c = cols[i];
        node[x] = (Node){next + (i + 3) % 4, next + (i + 1) % 4, node[c].up, c, c, cell * n + v};
        node[node[c].up].down = x;
        node[c].up = x;
        size_of[c]++;
      }
      next += 4;
    }
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "solve") && strcmp(argv[1], "count"))) {
    fprintf(stderr, "usage: dlx solve|count FILE\n");
    return 2;
  }
  int counting = !strcmp(argv[1], "count");
  limit = counting ? 2 : 1;
  FILE *in = fopen(argv[2], "r");
  if (!in) { perror(argv[2]); return 1; }
  static char line[4096];
  while (fgets(line, sizeof line, in)) {
    int len = strcspn(line, "\r\n");
    if (len == 0) continue;
    if (!node) {
      for (n = 4; n * n < len; n++) {}
      for (br = 1; (br + 1) * (br + 1) <= n; br++) {}
      while (n % br) br--;
      bc = n / br;
      build();
    }
    /* Cover the givens' rows, search, then uncover in reverse order. */
    int given[625], givens = 0, ok = 1;
    for (int cell = 0; cell < n * n; cell++) {
      const char *p = strchr(symbols, line[cell]);
      if (line[cell] == '.' || !p || p - symbols >= n) continue;
      int x = row_start[cell * n + (p - symbols)];
      /* A column already covered: two givens clash, and the puzzle has no solution. */
      for (int i = 0; i < 4; i++)
        if (node[node[node[x + i].column].left].right != node[x + i].column) ok = 0;
      if (!ok) break;
      for (int i = 0; i < 4; i++) cover(node[x + i].column);
      given[givens++] = x;
      solution[depth++] = cell * n + (p - symbols);
    }
    found = 0;
    if (ok) search();
    for (int g = givens - 1; g >= 0; g--)
      for (int i = 3; i >= 0; i--) uncover(node[given[g] + i].column);
    depth = 0;
    if (counting) {
      printf("%d\n", found);
    } else {
      for (int cell = 0; cell < n * n; cell++) putchar(found ? symbols[answer[cell]] : line[cell]);
      putchar('\n');
    }
  }
  return 0;
}
