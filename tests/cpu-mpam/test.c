// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bare-metal test of the CPU side of MPAM in QEMU (-M virt -cpu max[,mpam=on]).
 * Loaded with -kernel, it starts at the highest EL the machine gives it and
 * checks what the guest-requirements say Linux relies on: the ID fields,
 * MPAMIDR_EL1, MPAM0/1_EL1 (MPAMEN reads 1), MPAM2_EL2 and the E2H redirect,
 * MPAM1_EL12, the traps, and UNDEF without MPAM.  It prints one line per
 * check ("ok"/"FAIL"), the raw values ("info"), and a summary line, and
 * leaves QEMU through semihosting.
 */
#include <stdint.h>

#define UART_DR ((volatile uint32_t *)0x09000000)

#define READ(reg) ({ uint64_t v_; \
    asm volatile("mrs %0, " reg : "=r"(v_) :: "memory"); v_; })
#define WRITE(reg, v) asm volatile("msr " reg ", %0\n\tisb" :: "r"((uint64_t)(v)) : "memory")

/* Encodings as binutils may not know the MPAM names */
#define MPAMIDR_EL1   "S3_0_C10_C4_4"
#define MPAM1_EL1     "S3_0_C10_C5_0"
#define MPAM0_EL1     "S3_0_C10_C5_1"
#define MPAMSM_EL1    "S3_0_C10_C5_3"
#define MPAM2_EL2     "S3_4_C10_C5_0"
#define MPAMHCR_EL2   "S3_4_C10_C4_0"
#define MPAMVPMV_EL2  "S3_4_C10_C4_1"
#define MPAMVPM7_EL2  "S3_4_C10_C6_7"
#define MPAM1_EL12    "S3_5_C10_C5_0"
#define MPAM3_EL3     "S3_6_C10_C5_0"

#define MPAMEN        (1ULL << 63)
#define HCR_RW        (1ULL << 31)
#define HCR_E2H       (1ULL << 34)
#define EC_UNKNOWN    0x00
#define EC_SYSREG     0x18

volatile uint64_t last_esr, last_exc_el;
void call_el1(void (*fn)(void));

static unsigned passed, failed;

static void putc_(char c) { *UART_DR = c; }
static void puts_(const char *s) { while (*s) putc_(*s++); }
static void puthex(uint64_t v)
{
    puts_("0x");
    for (int i = 60; i >= 0; i -= 4) {
        putc_("0123456789abcdef"[(v >> i) & 0xf]);
    }
}
static void putdec(unsigned v)
{
    char b[12]; int n = 0;
    do { b[n++] = '0' + v % 10; v /= 10; } while (v);
    while (n) putc_(b[--n]);
}

static void check(uint64_t ok, const char *what)
{
    puts_(ok ? "ok   " : "FAIL ");
    puts_(what);
    puts_("\n");
    ok ? passed++ : failed++;
}

static void info(const char *what, uint64_t v)
{
    puts_("info ");
    puts_(what);
    puts_("=");
    puthex(v);
    puts_("\n");
}

/* Clear the exception record before an access that may fault. */
static void arm_fault(void) { last_esr = ~0ULL; last_exc_el = 0; }
static int faulted(void) { return last_esr != ~0ULL; }
static unsigned fault_ec(void) { return (last_esr >> 26) & 0x3f; }

/* ---- code run at EL1 from EL2 (call_el1) ---- */
static volatile uint64_t el1_val;
static void el1_read_mpam1(void)
{
    arm_fault();
    el1_val = READ(MPAM1_EL1);
    asm volatile("hvc #0x77");
}
static void el1_read_mpam0(void)
{
    arm_fault();
    el1_val = READ(MPAM0_EL1);
    asm volatile("hvc #0x77");
}
static void el1_read_mpamidr(void)
{
    arm_fault();
    el1_val = READ(MPAMIDR_EL1);
    asm volatile("hvc #0x77");
}

static void test_absent(unsigned el)
{
    check(((READ("ID_AA64PFR1_EL1") >> 16) & 0xf) == 0, "stock: ID_AA64PFR1_EL1.MPAM_frac == 0");
    arm_fault();
    (void)READ(MPAMIDR_EL1);
    check(faulted() && fault_ec() == EC_UNKNOWN, "stock: MPAMIDR_EL1 is UNDEFINED");
    arm_fault();
    WRITE(MPAM1_EL1, 0);
    check(faulted() && fault_ec() == EC_UNKNOWN, "stock: MPAM1_EL1 is UNDEFINED");
    if (el >= 2) {
        arm_fault();
        (void)READ(MPAM2_EL2);
        check(faulted() && fault_ec() == EC_UNKNOWN, "stock: MPAM2_EL2 is UNDEFINED");
    }
}

static void test_common(void)
{
    uint64_t v;

    check(((READ("ID_AA64PFR1_EL1") >> 16) & 0xf) == 1, "ID_AA64PFR1_EL1.MPAM_frac == 1 (v1.1)");

    /* Linux's test_has_mpam(): MPAMEN set by "firmware" */
    arm_fault();
    v = READ(MPAM1_EL1);
    check(!faulted(), "MPAM1_EL1 readable");
    check(v & MPAMEN, "MPAM1_EL1.MPAMEN reads 1");

    /* cpu_enable_mpam(): MPAM1_EL1 = MPAMEN | label, MPAM0_EL1 = label */
    WRITE(MPAM1_EL1, MPAMEN | 0x0000030200050004ULL);
    v = READ(MPAM1_EL1);
    info("MPAM1_EL1", v);
    check(v == (MPAMEN | 0x0000030200050004ULL), "MPAM1_EL1 write/read back");
    WRITE(MPAM1_EL1, 0x0000010100010001ULL);     /* MPAMEN written 0 */
    check(READ(MPAM1_EL1) == (MPAMEN | 0x0000010100010001ULL),
          "MPAM1_EL1.MPAMEN is read-only (firmware enabled)");
    WRITE(MPAM1_EL1, 0xf000ffffffffffffULL);
    check(READ(MPAM1_EL1) == (MPAMEN | 0x0000ffffffffffffULL),
          "MPAM1_EL1 RES0 bits ignored");

    WRITE(MPAM0_EL1, 0x0000050600070008ULL);
    check(READ(MPAM0_EL1) == 0x0000050600070008ULL, "MPAM0_EL1 write/read back");

    if (((READ("ID_AA64PFR1_EL1") >> 24) & 0xf) != 0) {  /* SME */
        arm_fault();
        WRITE(MPAMSM_EL1, 0x0000ffffffffffffULL);
        check(!faulted() && READ(MPAMSM_EL1) == 0x0000ff00ffff0000ULL,
              "MPAMSM_EL1 exists with SME, only PMG_D/PARTID_D");
    }
}

static void test_el2(uint64_t idr)
{
    uint64_t v;

    check(idr & (1ULL << 17), "MPAMIDR_EL1.HAS_HCR with EL2");
    check(((idr >> 18) & 7) == 7, "MPAMIDR_EL1.VPMR_MAX == 7");

    /* finalise_el2_state: MPAM2_EL2 = EnMPAMSM (MPAMEN written 0), MPAMHCR_EL2 = 0 */
    WRITE(MPAM2_EL2, 1ULL << 50);
    WRITE(MPAMHCR_EL2, 0);
    v = READ(MPAM2_EL2);
    info("MPAM2_EL2", v);
    check(v & MPAMEN, "MPAM2_EL2.MPAMEN still reads 1 after Linux writes 0");
    check(READ(MPAM1_EL1) & MPAMEN, "MPAM1_EL1.MPAMEN reads 1 at EL2");

    WRITE(MPAMVPMV_EL2, 0xffffffffffffffffULL);
    check(READ(MPAMVPMV_EL2) == 0xffffffffULL, "MPAMVPMV_EL2 has 32 valid bits");
    WRITE(MPAMVPM7_EL2, 0x1234567890abcdefULL);
    check(READ(MPAMVPM7_EL2) == 0x1234567890abcdefULL, "MPAMVPM7_EL2 write/read back");
    WRITE(MPAMHCR_EL2, 0xffffffffffffffffULL);
    check(READ(MPAMHCR_EL2) == 0x80000103ULL, "MPAMHCR_EL2 writable bits");
    WRITE(MPAMHCR_EL2, 0);

    /* E2H = 0: MPAM1_EL1 is MPAM1_EL1, MPAM1_EL12 UNDEFINED */
    WRITE("HCR_EL2", HCR_RW);
    WRITE(MPAM1_EL1, 0x0000111100220033ULL);
    WRITE(MPAM2_EL2, 0x0000444400550066ULL);
    check((READ(MPAM1_EL1) & ~MPAMEN) == 0x0000111100220033ULL, "E2H=0: MPAM1_EL1 is its own register");
    arm_fault();
    (void)READ(MPAM1_EL12);
    check(faulted() && fault_ec() == EC_UNKNOWN, "E2H=0: MPAM1_EL12 is UNDEFINED");

    /* E2H = 1 (VHE host): MPAM1_EL1 accesses MPAM2_EL2, MPAM1_EL12 is MPAM1_EL1 */
    if (((READ("ID_AA64MMFR1_EL1") >> 8) & 0xf) == 0) {
        puts_("info no FEAT_VHE: E2H checks skipped\n");
        goto traps;
    }
    WRITE("HCR_EL2", HCR_RW | HCR_E2H);
    check((READ(MPAM1_EL1) & ~MPAMEN) == 0x0000444400550066ULL, "E2H=1: MPAM1_EL1 reads MPAM2_EL2");
    WRITE(MPAM1_EL1, MPAMEN | 0x0000777700880099ULL);
    arm_fault();
    v = READ(MPAM1_EL12);
    check(!faulted() && (v & ~MPAMEN) == 0x0000111100220033ULL, "E2H=1: MPAM1_EL12 reads MPAM1_EL1");
    WRITE(MPAM1_EL12, 0x00000a0b000c000dULL);
    WRITE("HCR_EL2", HCR_RW);
    check((READ(MPAM2_EL2) & ~MPAMEN) == 0x0000777700880099ULL, "E2H=1: MPAM1_EL1 write went to MPAM2_EL2");
    check((READ(MPAM1_EL1) & ~MPAMEN) == 0x00000a0b000c000dULL, "E2H=1: MPAM1_EL12 write went to MPAM1_EL1");

traps:
    /* Traps from EL1 (E2H = 0, TGE = 0) */
    WRITE("HCR_EL2", HCR_RW);
    WRITE(MPAM2_EL2, 0);
    call_el1(el1_read_mpam1);
    check(!faulted() && (el1_val & MPAMEN), "EL1: MPAM1_EL1 readable, MPAMEN=1, no trap");
    WRITE(MPAM2_EL2, 1ULL << 48);                       /* TRAPMPAM1EL1 */
    call_el1(el1_read_mpam1);
    check(faulted() && fault_ec() == EC_SYSREG && last_exc_el == 2,
          "MPAM2_EL2.TRAPMPAM1EL1 traps EL1 MPAM1_EL1 to EL2");
    call_el1(el1_read_mpam0);
    check(!faulted(), "TRAPMPAM1EL1 does not trap MPAM0_EL1");
    WRITE(MPAM2_EL2, 1ULL << 49);                       /* TRAPMPAM0EL1 */
    call_el1(el1_read_mpam0);
    check(faulted() && fault_ec() == EC_SYSREG && last_exc_el == 2,
          "MPAM2_EL2.TRAPMPAM0EL1 traps EL1 MPAM0_EL1 to EL2");
    WRITE(MPAM2_EL2, 0);
    WRITE(MPAMHCR_EL2, 1ULL << 31);                     /* TRAP_MPAMIDR_EL1 */
    call_el1(el1_read_mpamidr);
    check(faulted() && fault_ec() == EC_SYSREG && last_exc_el == 2,
          "MPAMHCR_EL2.TRAP_MPAMIDR_EL1 traps EL1 MPAMIDR_EL1 to EL2");
    WRITE(MPAMHCR_EL2, 0);
    call_el1(el1_read_mpamidr);
    check(!faulted() && el1_val == idr, "EL1: MPAMIDR_EL1 readable without trap");
}

static void test_el3(void)
{
    uint64_t v = READ(MPAM3_EL3);

    info("MPAM3_EL3", v);
    check(v == (1ULL << 62), "MPAM3_EL3 resets to MPAMEN=0, TRAPLOWER=1");
    check(!(READ(MPAM1_EL1) & MPAMEN), "MPAM1_EL1.MPAMEN follows MPAM3_EL3.MPAMEN (0)");
    WRITE(MPAM3_EL3, MPAMEN);
    check(READ(MPAM1_EL1) & MPAMEN, "MPAM1_EL1.MPAMEN follows MPAM3_EL3.MPAMEN (1)");
}

int main(void)
{
    unsigned el = (READ("CurrentEL") >> 2) & 3;
    uint64_t pfr0 = READ("ID_AA64PFR0_EL1");
    unsigned mpam = (pfr0 >> 40) & 0xf;
    uint64_t idr = 0;

    puts_("cpu-mpam: running at EL");
    putdec(el);
    puts_("\n");
    info("ID_AA64PFR0_EL1", pfr0);

    if (el >= 2) {
        WRITE("HCR_EL2", HCR_RW);
    }
    if (mpam == 0) {
        puts_("info MPAM absent\n");
        test_absent(el);
    } else {
        check(mpam == 1, "ID_AA64PFR0_EL1.MPAM == 1");
        idr = READ(MPAMIDR_EL1);
        info("MPAMIDR_EL1", idr);
        puts_("info PARTID_MAX=");
        putdec(idr & 0xffff);
        puts_(" PMG_MAX=");
        putdec((idr >> 32) & 0xff);
        puts_("\n");
        if (el == 3) {
            test_el3();
        }
        test_common();
        if (el == 2) {
            test_el2(idr);
        }
    }
    puts_("cpu-mpam: ");
    putdec(passed);
    puts_(" passed, ");
    putdec(failed);
    puts_(" failed\n");
    return 0;
}
