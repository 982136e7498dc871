/* The size policy of the disk loads and of Memload, on synthetic machines. */
#include <check.h>
#include "tests/ck_run.h"
#include <stdlib.h>
#include <string.h>
#include "loadkit/probe.h"
#include "loadkit/sizes.h"

#define MiB SIZE_MIB
#define GiB SIZE_GIB

static char why[256];

static int disk(uint64_t ram, uint64_t free_bytes, uint64_t override, unsigned nfiles, uint64_t *size)
{
	struct disk_size_in in = { .ram_bytes = ram, .free_bytes = free_bytes,
				   .override_bytes = override, .nfiles = nfiles };
	why[0] = '\0';
	return disk_size_decide(&in, size, why, sizeof(why));
}

static int mem(uint64_t ram, uint64_t avail, uint64_t swap, uint64_t swap_free, uint64_t override, uint64_t *size)
{
	struct mem_size_in in = { .ram_bytes = ram, .mem_available_bytes = avail, .swap_total_bytes = swap,
				  .swap_free_bytes = swap_free, .override_bytes = override };
	why[0] = '\0';
	return mem_size_decide(&in, size, why, sizeof(why));
}

START_TEST(disk_one_gib_limit)
{
	uint64_t s;
	ck_assert_int_eq(disk(24 * GiB, 80 * GiB, 0, 1, &s), 0);
	ck_assert_uint_eq(s, GiB);
	ck_assert_ptr_nonnull(strstr(why, "1.0 GiB = smallest of RAM 24.0 GiB"));
}
END_TEST

START_TEST(disk_ram_below_one_gib)
{
	uint64_t s;
	ck_assert_int_eq(disk(512 * MiB + 12345, 80 * GiB, 0, 1, &s), 0);
	ck_assert_uint_eq(s, 512 * MiB); /* rounded down to whole MiB */
}
END_TEST

START_TEST(disk_free_space_limited)
{
	uint64_t s;
	ck_assert_int_eq(disk(24 * GiB, 2 * GiB, 0, 2, &s), 0);
	ck_assert_uint_eq(s, 512 * MiB); /* 25% of 2 GiB; two such files fit with the margin */
	ck_assert_int_eq(disk(24 * GiB, 3 * MiB, 0, 1, &s), -1); /* 25% is less than 1 MiB */
	ck_assert_ptr_nonnull(strstr(why, "free"));
}
END_TEST

START_TEST(disk_override)
{
	uint64_t s;
	ck_assert_int_eq(disk(24 * GiB, 80 * GiB, 64 * MiB, 1, &s), 0);
	ck_assert_uint_eq(s, 64 * MiB);
	ck_assert_str_eq(why, "64.0 MiB (--file-size)");
	ck_assert_int_eq(disk(512 * MiB, 80 * GiB, 4 * GiB, 1, &s), 0); /* may exceed RAM and 1 GiB */
	ck_assert_uint_eq(s, 4 * GiB);
	ck_assert_int_eq(disk(512 * MiB, 80 * GiB, UINT64_MAX, 1, &s), -1); /* no overflow */
}
END_TEST

START_TEST(disk_override_does_not_fit)
{
	uint64_t s;
	/* 10 GiB + 10% needs 11 GiB: refused with 10.5 GiB free, accepted with 11 GiB */
	ck_assert_int_eq(disk(24 * GiB, 10 * GiB + 512 * MiB, 10 * GiB, 1, &s), -1);
	ck_assert_ptr_nonnull(strstr(why, "1 file of 10.0 GiB needs 11.0 GiB with a 10% margin"));
	ck_assert_int_eq(disk(24 * GiB, 11 * GiB, 10 * GiB, 1, &s), 0);
	/* Compile keeps two files */
	ck_assert_int_eq(disk(24 * GiB, 11 * GiB, 10 * GiB, 2, &s), -1);
	ck_assert_ptr_nonnull(strstr(why, "2 files of 10.0 GiB need 22.0 GiB"));
}
END_TEST

START_TEST(disk_absurd_override_states_the_real_need)
{
	uint64_t s;
	/* --file-size 16777215T, the largest the suffix allows: the need is past uint64_t */
	ck_assert_int_eq(disk(24 * GiB, 80 * GiB, 16777215ull << 40, 1, &s), -1);
	ck_assert_str_eq(why, "1 file of 16.0 EiB needs 17.6 EiB with a 10% margin; 80.0 GiB free");
	ck_assert_int_eq(disk(24 * GiB, 80 * GiB, UINT64_MAX, 2, &s), -1);
	ck_assert_str_eq(why, "2 files of 16.0 EiB need 35.2 EiB with a 10% margin; 80.0 GiB free");
	ck_assert_int_eq(disk(24 * GiB, 80 * GiB, 1ull << 60, 1, &s), -1);
	ck_assert_str_eq(why, "1 file of 1.0 EiB needs 1.1 EiB with a 10% margin; 80.0 GiB free");
}
END_TEST

START_TEST(mem_reserve_floor)
{
	ck_assert_uint_eq(mem_reserve_bytes(2 * GiB), 256 * MiB);    /* 5% is only 102 MiB */
	ck_assert_uint_eq(mem_reserve_bytes(5 * GiB + 1 * GiB), 6 * GiB * 5 / 100);
	ck_assert_uint_eq(mem_reserve_bytes(100 * GiB), 5 * GiB);
}
END_TEST

START_TEST(mem_no_swap)
{
	uint64_t s;
	uint64_t ram = 24 * GiB, reserve = 24 * GiB * 5 / 100;
	ck_assert_int_eq(mem(ram, 23 * GiB, 0, 0, 0, &s), 0);
	ck_assert_uint_eq(s, (23 * GiB - reserve) / MiB * MiB);
	ck_assert_str_eq(why, "21.8 GiB = MemAvailable 23.0 GiB - reserve 1.2 GiB (no swap)");
}
END_TEST

START_TEST(mem_no_swap_small_machine_floor)
{
	uint64_t s;
	ck_assert_int_eq(mem(2 * GiB, 1 * GiB, 0, 0, 0, &s), 0);
	ck_assert_uint_eq(s, 768 * MiB); /* 1 GiB - 256 MiB floor */
	ck_assert_int_eq(mem(2 * GiB, 200 * MiB, 0, 0, 0, &s), -1);
	ck_assert_ptr_nonnull(strstr(why, "no memory to spare"));
}
END_TEST

START_TEST(mem_swap_110_pct)
{
	uint64_t s;
	/* 10 GiB RAM, 8 GiB swap, all free: 110% of RAM = 11 GiB fits under 18 GiB - reserve */
	ck_assert_int_eq(mem(10 * GiB, 9 * GiB, 8 * GiB, 8 * GiB, 0, &s), 0);
	ck_assert_uint_eq(s, 10 * GiB * 110 / 100 / MiB * MiB);
	ck_assert_ptr_nonnull(strstr(why, "110% of RAM 10.0 GiB"));
}
END_TEST

START_TEST(mem_swap_capped)
{
	uint64_t s;
	/* 10 GiB RAM, 512 MiB swap: RAM + swap - 512 MiB reserve = 10 GiB < 11 GiB */
	ck_assert_int_eq(mem(10 * GiB, 10 * GiB, 512 * MiB, 512 * MiB, 0, &s), 0);
	ck_assert_uint_eq(s, 10 * GiB);
	ck_assert_ptr_nonnull(strstr(why, "capped at RAM 10.0 GiB + swap 512.0 MiB - reserve 512.0 MiB"));
	/* busy machine: MemAvailable + SwapFree is the tighter cap */
	ck_assert_int_eq(mem(10 * GiB, 4 * GiB, 8 * GiB, 2 * GiB, 0, &s), 0);
	ck_assert_uint_eq(s, 6 * GiB - 512 * MiB);
	ck_assert_ptr_nonnull(strstr(why, "MemAvailable 4.0 GiB + SwapFree 2.0 GiB"));
}
END_TEST

START_TEST(mem_override)
{
	uint64_t s;
	ck_assert_int_eq(mem(24 * GiB, 23 * GiB, 0, 0, 256 * MiB, &s), 0);
	ck_assert_uint_eq(s, 256 * MiB);
	ck_assert_str_eq(why, "256.0 MiB (--mem-size)");
}
END_TEST

START_TEST(mem_override_above_cap)
{
	uint64_t s;
	ck_assert_int_eq(mem(24 * GiB, 23 * GiB, 0, 0, 64 * GiB, &s), 0);
	ck_assert_uint_eq(s, (23 * GiB - 24 * GiB * 5 / 100) / MiB * MiB);
	ck_assert_ptr_nonnull(strstr(why, "--mem-size 64.0 GiB capped at MemAvailable 23.0 GiB"));
}
END_TEST

/* Memload under a cgroup limit of limit_bytes with used_bytes in use (ram 24 GiB, 23 GiB
 * MemAvailable, no swap unless given). */
static int mem_cg(uint64_t limit, uint64_t used, uint64_t swap, uint64_t override, uint64_t *size)
{
	struct memcg_room cg = { .limited = true, .limit_bytes = limit, .used_bytes = used,
				 .file = "memory.max", .dir = "/sys/fs/cgroup/ib" };
	struct mem_size_in in = { .ram_bytes = 24 * GiB, .mem_available_bytes = 23 * GiB,
				  .swap_total_bytes = swap, .swap_free_bytes = swap,
				  .override_bytes = override, .cg = &cg };
	why[0] = '\0';
	return mem_size_decide(&in, size, why, sizeof(why));
}

START_TEST(mem_cgroup_reserve)
{
	ck_assert_uint_eq(mem_cg_reserve_bytes(512 * MiB), 64 * MiB);        /* 5% is only 25.6 MiB */
	ck_assert_uint_eq(mem_cg_reserve_bytes(4 * GiB), 4 * GiB / 100 * 5); /* 204.8 MiB */
}
END_TEST

START_TEST(mem_cgroup_tighter_than_machine)
{
	uint64_t s;
	ck_assert_int_eq(mem_cg(512 * MiB, 20 * MiB, 0, 0, &s), 0);
	ck_assert_uint_eq(s, 428 * MiB); /* 512 - 20 used - 64 reserve */
	ck_assert_str_eq(why, "428.0 MiB = cgroup /sys/fs/cgroup/ib memory.max 512.0 MiB - used 20.0 MiB - reserve 64.0 MiB");
	ck_assert_int_eq(mem_cg(4 * GiB, 0, 0, 0, &s), 0);
	ck_assert_uint_eq(s, (4 * GiB - 4 * GiB / 100 * 5) / MiB * MiB);
}
END_TEST

START_TEST(mem_cgroup_looser_than_machine)
{
	uint64_t s;
	/* a 100 GiB limit on a 24 GiB machine: MemAvailable decides */
	ck_assert_int_eq(mem_cg(100 * GiB, 1 * GiB, 0, 0, &s), 0);
	ck_assert_uint_eq(s, (23 * GiB - 24 * GiB * 5 / 100) / MiB * MiB);
	ck_assert_str_eq(why, "21.8 GiB = MemAvailable 23.0 GiB - reserve 1.2 GiB (no swap)");
	/* a cgroup without a limit changes nothing */
	struct memcg_room none = { .limited = false };
	struct mem_size_in in = { .ram_bytes = 24 * GiB, .mem_available_bytes = 23 * GiB, .cg = &none };
	uint64_t s2;
	ck_assert_int_eq(mem_size_decide(&in, &s2, why, sizeof(why)), 0);
	ck_assert_uint_eq(s2, s);
}
END_TEST

START_TEST(mem_cgroup_full)
{
	uint64_t s;
	ck_assert_int_eq(mem_cg(512 * MiB, 460 * MiB, 0, 0, &s), -1);  /* 52 MiB left < 64 MiB reserve */
	ck_assert_ptr_nonnull(strstr(why, "no memory to spare: cgroup /sys/fs/cgroup/ib memory.max 512.0 MiB"));
	ck_assert_int_eq(mem_cg(512 * MiB, 600 * MiB, 0, 0, &s), -1);  /* usage above the limit */
}
END_TEST

START_TEST(mem_cgroup_caps_swap_target_and_override)
{
	uint64_t s;
	/* with swap, 110% of RAM is capped at the cgroup, whose swap is not counted */
	ck_assert_int_eq(mem_cg(2 * GiB, 0, 8 * GiB, 0, &s), 0);
	ck_assert_uint_eq(s, (2 * GiB - 2 * GiB / 100 * 5) / MiB * MiB);
	ck_assert_ptr_nonnull(strstr(why, "110% of RAM 26.4 GiB capped at cgroup /sys/fs/cgroup/ib memory.max 2.0 GiB"));
	ck_assert_int_eq(mem_cg(512 * MiB, 0, 0, 256 * MiB, &s), 0);
	ck_assert_str_eq(why, "256.0 MiB (--mem-size)");
	ck_assert_int_eq(mem_cg(512 * MiB, 0, 0, GiB, &s), 0);
	ck_assert_uint_eq(s, 448 * MiB);
	ck_assert_ptr_nonnull(strstr(why, "--mem-size 1.0 GiB capped at cgroup"));
}
END_TEST

START_TEST(human_sizes)
{
	char b[32];
	size_human(512 * MiB, b, sizeof(b));
	ck_assert_str_eq(b, "512.0 MiB");
	size_human(GiB + GiB / 10, b, sizeof(b));
	ck_assert_str_eq(b, "1.1 GiB");
	size_human(1536 * GiB, b, sizeof(b));
	ck_assert_str_eq(b, "1.5 TiB");
	size_human(UINT64_MAX, b, sizeof(b));
	ck_assert_str_eq(b, "16.0 EiB");
}
END_TEST

/* The in-memory file systems by statfs f_type (statfs(2)'s list): tmpfs and ramfs only. */
START_TEST(storage_memory_fs_names)
{
	ck_assert_str_eq(probe_memory_fs_name(0x01021994), "tmpfs");
	ck_assert_str_eq(probe_memory_fs_name(0x858458f6), "ramfs");
	ck_assert_ptr_null(probe_memory_fs_name(0xEF53));      /* ext4 */
	ck_assert_ptr_null(probe_memory_fs_name(0x794c7630));  /* overlay: its upper directory decides */
}
END_TEST

/* An overlay's upper directory from mountinfo lines (proc(5)), matched by device; optional
 * fields before " - " and other mounts' lines are skipped. */
START_TEST(storage_overlay_upper)
{
	const char *mi =
		"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		"40 22 0:45 / /merged rw,relatime shared:7 master:2 - overlay overlay rw,lowerdir=/l1:/l2,"
		"upperdir=/run/up/u,workdir=/run/up/w\n"
		"41 22 0:46 / /other rw - overlay overlay rw,lowerdir=/x\n";
	char up[64];
	ck_assert_int_eq(probe_overlay_upper(mi, 0, 45, up, sizeof(up)), 0);
	ck_assert_str_eq(up, "/run/up/u");
	ck_assert_int_eq(probe_overlay_upper(mi, 0, 46, up, sizeof(up)), -1); /* no upperdir */
	ck_assert_int_eq(probe_overlay_upper(mi, 8, 1, up, sizeof(up)), -1);  /* not an overlay */
	ck_assert_int_eq(probe_overlay_upper(mi, 0, 47, up, sizeof(up)), -1); /* no such mount */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sizes");
	TCase *tc = tcase_create("policy");
	tcase_add_test(tc, disk_one_gib_limit);
	tcase_add_test(tc, storage_memory_fs_names);
	tcase_add_test(tc, storage_overlay_upper);
	tcase_add_test(tc, disk_ram_below_one_gib);
	tcase_add_test(tc, disk_free_space_limited);
	tcase_add_test(tc, disk_override);
	tcase_add_test(tc, disk_override_does_not_fit);
	tcase_add_test(tc, disk_absurd_override_states_the_real_need);
	tcase_add_test(tc, mem_reserve_floor);
	tcase_add_test(tc, mem_no_swap);
	tcase_add_test(tc, mem_no_swap_small_machine_floor);
	tcase_add_test(tc, mem_swap_110_pct);
	tcase_add_test(tc, mem_swap_capped);
	tcase_add_test(tc, mem_override);
	tcase_add_test(tc, mem_override_above_cap);
	tcase_add_test(tc, mem_cgroup_reserve);
	tcase_add_test(tc, mem_cgroup_tighter_than_machine);
	tcase_add_test(tc, mem_cgroup_looser_than_machine);
	tcase_add_test(tc, mem_cgroup_full);
	tcase_add_test(tc, mem_cgroup_caps_swap_target_and_override);
	tcase_add_test(tc, human_sizes);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
