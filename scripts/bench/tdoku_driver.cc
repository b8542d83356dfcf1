// A whole-process driver for tdoku's solver (built by scripts/bench.sh against a checkout of
// tdoku's sources; nothing of tdoku is in this repository):
//
//   tdoku-driver solve FILE        the first solution of every puzzle, one line each
//   tdoku-driver count FILE        0, 1 or 2 (two or more) solutions of every puzzle
//   tdoku-driver guesses FILE [K]  "PUZZLE MEAN": tdoku's guesses for a first solution, averaged
//                                  over K (10) random equivalents of the puzzle
//
// Puzzles are 81-character lines, '.' or '0' for a blank; other lines are skipped.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

#include "tdoku.h"

namespace {

// A random equivalent of `in`: digits relabelled, rows within bands, bands, columns within
// stacks and stacks reordered, and a transposition half the time.
void equivalent(const char *in, char *out, std::mt19937_64 &rng) {
    auto order = [&rng](int *lines) {
        int blocks[3] = {0, 1, 2};
        std::shuffle(blocks, blocks + 3, rng);
        for (int b = 0; b < 3; b++) {
            int within[3] = {0, 1, 2};
            std::shuffle(within, within + 3, rng);
            for (int i = 0; i < 3; i++) lines[3 * b + i] = 3 * blocks[b] + within[i];
        }
    };
    int rows[9], columns[9];
    order(rows);
    order(columns);
    char label[10];
    std::iota(label, label + 10, '0');
    std::shuffle(label + 1, label + 10, rng);
    bool transpose = rng() & 1;
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            char cell = transpose ? in[9 * columns[c] + rows[r]] : in[9 * rows[r] + columns[c]];
            out[9 * r + c] = cell == '.' || cell == '0' ? '.' : label[cell - '0'];
        }
    }
    out[81] = '\0';
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: tdoku-driver solve|count|guesses FILE [K]\n");
        return 2;
    }
    std::string mode = argv[1];
    FILE *file = strcmp(argv[2], "-") == 0 ? stdin : fopen(argv[2], "r");
    if (!file) {
        perror(argv[2]);
        return 1;
    }
    int k = argc > 3 ? atoi(argv[3]) : 10;
    std::mt19937_64 rng(1);
    char line[1024], puzzle[82], solution[82], shuffled[82];
    std::string out;
    while (fgets(line, sizeof line, file)) {
        size_t length = strcspn(line, "\r\n");
        if (length != 81) continue;
        memcpy(puzzle, line, 81);
        puzzle[81] = '\0';
        size_t guesses = 0;
        if (mode == "solve") {
            size_t found = TdokuSolverDpllTriadSimd(puzzle, 1, 0, solution, &guesses);
            out.append(found ? solution : puzzle, 81);
            out.push_back('\n');
        } else if (mode == "count") {
            size_t found = TdokuSolverDpllTriadSimd(puzzle, 2, 0, solution, &guesses);
            out += std::to_string(found) + "\n";
        } else if (mode == "guesses") {
            size_t total = 0;
            for (int i = 0; i < k; i++) {
                equivalent(puzzle, shuffled, rng);
                guesses = 0;
                TdokuSolverDpllTriadSimd(shuffled, 1, 0, solution, &guesses);
                total += guesses;
            }
            char mean[32];
            snprintf(mean, sizeof mean, " %.2f\n", k > 0 ? double(total) / k : 0.0);
            out.append(puzzle, 81);
            out += mean;
        } else {
            fprintf(stderr, "tdoku-driver: unknown mode %s\n", mode.c_str());
            return 2;
        }
    }
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
