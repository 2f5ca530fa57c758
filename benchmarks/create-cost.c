/*
 * What "never a half file under its final name" costs the kernel, apart from everything else cpx
 * does: N files of SIZE bytes made in one directory three ways, as cp does (open O_CREAT|O_EXCL
 * under the final name, write, close), as cpx does (open O_TMPFILE, write, linkat AT_EMPTY_PATH,
 * close), and under a temporary name renamed (renameat2 RENAME_NOREPLACE) to the final one.
 *
 *   cc -O2 -o /tmp/create-cost benchmarks/create-cost.c
 *   for m in 0 1 2; do rm -rf /dev/shm/cc; mkdir /dev/shm/cc
 *     /usr/bin/time -f "mode $m: %e s, %S s system" /tmp/create-cost $m /dev/shm/cc 78000 4000; done
 *
 * MODE: 0 create, 1 O_TMPFILE + linkat (needs CAP_DAC_READ_SEARCH for AT_EMPTY_PATH), 2 rename.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s MODE DIR N SIZE\n", argv[0]);
        return 2;
    }
    int mode = atoi(argv[1]), n = atoi(argv[3]), size = atoi(argv[4]);
    static char buf[1 << 16];
    if (size < 0 || size > (int) sizeof buf) {
        fprintf(stderr, "SIZE: 0 to %zu\n", sizeof buf);
        return 2;
    }
    memset(buf, 'x', sizeof buf);
    int dir = open(argv[2], O_DIRECTORY | O_RDONLY);
    if (dir < 0) {
        perror(argv[2]);
        return 1;
    }
    char name[64], temp[64];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "f%d", i);
        int fd;
        if (mode == 0) {
            fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        } else if (mode == 1) {
            fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
        } else {
            snprintf(temp, sizeof temp, ".t%d", i);
            fd = openat(dir, temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        }
        if (fd < 0 || write(fd, buf, size) != size) {
            perror("create/write");
            return 1;
        }
        if ((mode == 1 && linkat(fd, "", dir, name, AT_EMPTY_PATH) != 0)
                || (mode == 2 && renameat2(dir, temp, dir, name, RENAME_NOREPLACE) != 0)) {
            perror("name");
            return 1;
        }
        close(fd);
    }
    return 0;
}
